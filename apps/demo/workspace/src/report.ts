import { percent } from "./percent.ts";

/** One line of the daily report: today's hits and their share of the week's. */
export function reportLine(today: number, week: number): string {
  return `${today} hits today (${percent(week, today)}% of the week)`;
}
