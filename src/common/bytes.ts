/** A byte count for people: "512 bytes", "2 KiB", "4 MiB", "5.2 MiB" (binary units, one decimal at most). */
export function formatBytes(bytes: number): string {
  if (bytes < 1024) return `${bytes} byte${bytes === 1 ? '' : 's'}`;
  const units = ['KiB', 'MiB', 'GiB', 'TiB'];
  let value = bytes / 1024;
  let unit = 0;
  while (value >= 1024 && unit < units.length - 1) {
    value /= 1024;
    unit += 1;
  }
  return `${Number(value.toFixed(1))} ${units[unit]}`;
}

/** A limit with its exact value and the setting that sets it: "4 MiB (IMAGE_UPLOAD_LIMIT_BYTES=4194304)". */
export function formatLimit(bytes: number, setting?: string): string {
  return setting ? `${formatBytes(bytes)} (${setting}=${bytes})` : formatBytes(bytes);
}
