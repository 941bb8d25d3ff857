/** A UTC date from its parts (month 1–12; years 0–99 are taken as they are), for the date tables. */
export function utc(year: number, month: number, day: number, hour = 0, minute = 0, second = 0, ms = 0): Date {
  const d = new Date(0);
  d.setUTCFullYear(year, month - 1, day);
  d.setUTCHours(hour, minute, second, ms);
  return d;
}
