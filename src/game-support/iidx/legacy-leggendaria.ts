/**
 * Songs whose LEGGENDARIA was a song of its own (a "†" entry) before HEROIC VERSE made it a
 * difficulty. e-amusement networks (KAI, CG) still name old plays by the † entry's music id:
 * old id → the base song's id, whose LEGGENDARIA the play is.
 */
export const LEGACY_LEGGENDARIA_IDS: Readonly<Record<number, number>> = {
  1100: 1017,
  4100: 4005,
  4101: 4001,
  5100: 5014,
  11100: 11032,
  11101: 11012,
  12100: 12002,
  13100: 13010,
  14100: 14009,
  14101: 14046,
  15101: 15023,
  15102: 15007,
  15104: 15004,
  15105: 15045,
  16101: 16050,
  16102: 16045,
  16103: 16031,
  16104: 16015,
  17101: 17060,
  18100: 18025,
  18103: 18011,
  19100: 19063,
  20103: 20100,
  20104: 20039,
  20105: 20068,
  20106: 20024,
  20107: 20019,
  21100: 21012,
  21101: 21059,
  21102: 21069,
  21103: 21073,
  21104: 21052,
  21105: 21048,
  21106: 21050,
  21107: 21029,
  22101: 22008,
  22102: 22013,
  22103: 22024,
  22104: 22027,
  22105: 22031,
  22106: 22089,
  22107: 22006,
  23100: 23054,
  23101: 23031,
  24100: 24041,
  24101: 24011,
};

/** The base song and LEGGENDARIA of a legacy † music id, or undefined for any other id. */
export function legacyLeggendaria(musicID: number): number | undefined {
  return Object.hasOwn(LEGACY_LEGGENDARIA_IDS, musicID) ? LEGACY_LEGGENDARIA_IDS[musicID] : undefined;
}
