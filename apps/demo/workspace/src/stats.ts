import { percent } from "./percent.ts";

/** The hits of one day. */
export interface DailyHits {
  day: string;
  hits: number;
}

/** Each day's share of all the hits, in percent. */
export function dailyShares(days: readonly DailyHits[]): Array<{ day: string; share: number }> {
  const total = days.reduce((sum, day) => sum + day.hits, 0);
  return days.map((day) => ({ day: day.day, share: percent(total, day.hits) }));
}

/** How much of the counter's limit is used, in percent. */
export function limitUsed(count: number, limit: number): number {
  return percent(count, limit);
}
