/**
 * A matcher for the Mongo-style filters Tachi folders store. Stored keys use `¬` for `.` and `~`
 * for `$` (Mongo cannot store those in keys); they are decoded first. Semantics follow MongoDB:
 * - fields are dotted paths; a path through an array matches if any element matches;
 * - equality with an array field means "the array contains the value";
 * - equality with a plain object means the whole sub-document is equal;
 * - each operator of a condition is tested on its own over the values a path reaches, so
 *   {$gte: 13, $lt: 14} through an array may be met by two different elements;
 * - $elemMatch needs one element to satisfy all its conditions;
 * - $not / $ne / $nin also match documents where the field is missing;
 * - comparisons only match values of the same type (numbers with numbers, strings with strings).
 */

type Doc = Record<string, unknown>;
export type Filter = Record<string, unknown>;

export class FilterError extends Error {}

const OPERATORS = new Set(['$eq', '$ne', '$gt', '$gte', '$lt', '$lte', '$in', '$nin', '$not', '$elemMatch', '$exists', '$size', '$all']);

/** Decodes the stored key escapes (`¬` → `.`, `~` → `$`) recursively. */
export function decodeFilter(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(decodeFilter);
  if (value && typeof value === 'object') {
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k.replaceAll('¬', '.').replaceAll('~', '$'), decodeFilter(v)]));
  }
  return value;
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function isOperatorObject(value: unknown): value is Record<string, unknown> {
  if (!isPlainObject(value)) return false;
  const keys = Object.keys(value);
  return keys.length > 0 && keys.every((k) => k.startsWith('$'));
}

function deepEqual(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (Array.isArray(a) && Array.isArray(b)) return a.length === b.length && a.every((v, i) => deepEqual(v, b[i]));
  if (isPlainObject(a) && isPlainObject(b)) {
    const ka = Object.keys(a);
    return ka.length === Object.keys(b).length && ka.every((k) => k in b && deepEqual(a[k], b[k]));
  }
  return false;
}

/** The values a dotted path reaches, fanning out through arrays; `undefined` when the path is missing. */
function resolvePath(value: unknown, path: readonly string[]): unknown[] {
  if (path.length === 0) return [value];
  if (Array.isArray(value)) {
    const [head, ...rest] = path;
    // a numeric segment may index the array itself
    const direct = /^\d+$/.test(head) ? resolvePath(value[Number(head)], rest) : [];
    return [...direct, ...value.flatMap((el) => (isPlainObject(el) ? resolvePath(el, path) : []))];
  }
  if (!isPlainObject(value)) return [undefined];
  const [head, ...rest] = path;
  return resolvePath(value[head], rest);
}

function compare(a: unknown, b: unknown): number | undefined {
  if (typeof a === 'number' && typeof b === 'number') return a - b;
  if (typeof a === 'string' && typeof b === 'string') return a < b ? -1 : a > b ? 1 : 0;
  return undefined;
}

/** Equality the way a query `{field: value}` tests it: an array field contains the value, null matches missing. */
function equalsQuery(fieldValue: unknown, target: unknown): boolean {
  if (target === null && fieldValue === undefined) return true;
  if (deepEqual(fieldValue, target)) return true;
  return Array.isArray(fieldValue) && fieldValue.some((el) => deepEqual(el, target));
}

function candidates(fieldValue: unknown): unknown[] {
  return Array.isArray(fieldValue) ? [fieldValue, ...fieldValue] : [fieldValue];
}

const LOGICAL = new Set(['$and', '$or', '$nor']);

/** An $elemMatch operand is either conditions on a scalar element ({$gte: 5}) or a filter on a sub-document. */
function isValueElemMatch(operand: Record<string, unknown>): boolean {
  return isOperatorObject(operand) && !Object.keys(operand).some((k) => LOGICAL.has(k));
}

/** A positive operator against one value a path reached. */
function matchValue(op: string, operand: unknown, fieldValue: unknown): boolean {
  switch (op) {
    case '$eq':
      return equalsQuery(fieldValue, operand);
    case '$gt':
    case '$gte':
    case '$lt':
    case '$lte':
      return candidates(fieldValue).some((v) => {
        const c = compare(v, operand);
        if (c === undefined) return false;
        return op === '$gt' ? c > 0 : op === '$gte' ? c >= 0 : op === '$lt' ? c < 0 : c <= 0;
      });
    case '$in':
      if (!Array.isArray(operand)) throw new FilterError('$in needs an array');
      return operand.some((t) => equalsQuery(fieldValue, t));
    case '$size':
      return Array.isArray(fieldValue) && fieldValue.length === operand;
    case '$elemMatch':
      if (!isPlainObject(operand)) throw new FilterError('$elemMatch needs an object');
      return (
        Array.isArray(fieldValue) &&
        fieldValue.some((el) => (isValueElemMatch(operand) ? matchField([el], operand) : isPlainObject(el) && matchesFilter(el, operand)))
      );
    default:
      throw new FilterError(`Unsupported operator ${op}`);
  }
}

/**
 * One operator against every value a path reached. As in MongoDB, each operator of a condition is
 * tested on its own: {$gte: 5, $lt: 10} on a path through an array matches when some value is
 * >= 5 and some (maybe other) value is < 10. Negations ($not, $ne, $nin, $exists: false) hold
 * only when no value matches, so they also match a missing field.
 */
function matchOperator(op: string, operand: unknown, values: readonly unknown[]): boolean {
  switch (op) {
    case '$ne':
      return !values.some((v) => equalsQuery(v, operand));
    case '$nin':
      if (!Array.isArray(operand)) throw new FilterError('$nin needs an array');
      return !values.some((v) => operand.some((t) => equalsQuery(v, t)));
    case '$not':
      if (!isOperatorObject(operand)) throw new FilterError('$not needs an operator expression');
      return !matchField(values, operand);
    case '$exists':
      return operand ? values.some((v) => v !== undefined) : values.every((v) => v === undefined);
    case '$all':
      if (!Array.isArray(operand)) throw new FilterError('$all needs an array');
      return operand.every((t) => values.some((v) => equalsQuery(v, t)));
    default:
      return values.some((v) => matchValue(op, operand, v));
  }
}

/** One field's condition against the values its path reached. */
function matchField(values: readonly unknown[], condition: unknown): boolean {
  if (isOperatorObject(condition)) {
    for (const op of Object.keys(condition)) if (!OPERATORS.has(op)) throw new FilterError(`Unsupported operator ${op}`);
    return Object.entries(condition).every(([op, operand]) => matchOperator(op, operand, values));
  }
  return values.some((v) => equalsQuery(v, condition));
}

/** Whether a document matches a decoded filter. Throws FilterError for an operator it does not know. */
export function matchesFilter(doc: Doc, filter: Filter): boolean {
  return Object.entries(filter).every(([key, condition]) => {
    if (LOGICAL.has(key)) {
      if (!Array.isArray(condition)) throw new FilterError(`${key} needs an array`);
      const results = condition.map((sub) => matchesFilter(doc, sub as Filter));
      return key === '$and' ? results.every(Boolean) : key === '$or' ? results.some(Boolean) : !results.some(Boolean);
    }
    if (key.startsWith('$')) throw new FilterError(`Unsupported top-level operator ${key}`);
    return matchField(resolvePath(doc, key.split('.')), condition);
  });
}

/**
 * Checks a decoded filter's whole structure up front. matchesFilter only meets the parts a
 * document makes it evaluate, so a malformed operator deep in a filter could otherwise surface
 * only later, against some chart.
 */
export function assertValidFilter(filter: unknown): void {
  if (!isPlainObject(filter)) throw new FilterError('a filter must be an object');
  for (const [key, condition] of Object.entries(filter)) {
    if (LOGICAL.has(key)) {
      if (!Array.isArray(condition) || condition.length === 0) throw new FilterError(`${key} needs a non-empty array of filters`);
      condition.forEach(assertValidFilter);
    } else if (key.startsWith('$')) {
      throw new FilterError(`Unsupported top-level operator ${key}`);
    } else {
      assertValidCondition(condition);
    }
  }
}

function assertValidCondition(condition: unknown): void {
  if (!isPlainObject(condition)) return; // a literal value to compare with
  const keys = Object.keys(condition);
  const ops = keys.filter((k) => k.startsWith('$'));
  if (ops.length === 0) return; // a literal sub-document
  if (ops.length !== keys.length) throw new FilterError(`a condition cannot mix operators and fields (${keys.join(', ')})`);
  for (const [op, operand] of Object.entries(condition)) {
    if (!OPERATORS.has(op)) throw new FilterError(`Unsupported operator ${op}`);
    if ((op === '$in' || op === '$nin' || op === '$all') && !Array.isArray(operand)) throw new FilterError(`${op} needs an array`);
    if (op === '$size' && !(typeof operand === 'number' && Number.isInteger(operand) && operand >= 0))
      throw new FilterError('$size needs a non-negative integer');
    if (op === '$not') {
      if (!isOperatorObject(operand)) throw new FilterError('$not needs an operator expression');
      assertValidCondition(operand);
    }
    if (op === '$elemMatch') {
      if (!isPlainObject(operand)) throw new FilterError('$elemMatch needs an object');
      if (isValueElemMatch(operand)) assertValidCondition(operand);
      else assertValidFilter(operand);
    }
  }
}
