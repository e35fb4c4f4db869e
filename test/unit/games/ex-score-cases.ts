/**
 * Grade edges shared by the IIDX, BMS and PMS specs. On a 900-note chart (max EX 1800) percent = score / 18,
 * so a grade starting at k/9 of 100 starts at EX 200k, and MAX- (17/18) at EX 1700; each edge is also checked
 * one EX below.
 */
export const EX_NOTECOUNT = 900;
export const EX_GRADE_EDGES: readonly (readonly [number, string])[] = [
  [0, 'F'],
  [399, 'F'],
  [400, 'E'],
  [599, 'E'],
  [600, 'D'],
  [799, 'D'],
  [800, 'C'],
  [999, 'C'],
  [1000, 'B'],
  [1199, 'B'],
  [1200, 'A'],
  [1399, 'A'],
  [1400, 'AA'],
  [1599, 'AA'],
  [1600, 'AAA'],
  [1699, 'AAA'],
  [1700, 'MAX-'],
  [1799, 'MAX-'],
  [1800, 'MAX'],
];
