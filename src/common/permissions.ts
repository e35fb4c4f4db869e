/** API-key permissions (spec part 5). A session ("self-key") holds all of them. */
export const PERMISSIONS = [
  'submit_score',
  'customise_profile',
  'customise_score',
  'customise_session',
  'delete_score',
  'manage_targets',
  'manage_rivals',
] as const;

export type Permission = (typeof PERMISSIONS)[number];

export function isPermission(value: unknown): value is Permission {
  return typeof value === 'string' && (PERMISSIONS as readonly string[]).includes(value);
}

/** The spec's wire form: permission name to boolean. */
export function permissionRecord(granted: readonly Permission[]): Record<Permission, boolean> {
  return Object.fromEntries(PERMISSIONS.map((p) => [p, granted.includes(p)])) as Record<Permission, boolean>;
}
