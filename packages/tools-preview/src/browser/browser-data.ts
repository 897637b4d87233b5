import type { PreviewReadAnswer } from "../engine/preview-data.js";
import type { BrowserEvent } from "./browser-events.js";

/** What the `browser` tool returns (every key snake_case). */
export interface BrowserToolData {
  /** The op. */
  op: string;
  /** The current tab's URL. */
  url: string;
  /** Its title. */
  title: string;
  /** The current tab (1-based). */
  tab: number;
  /** Open tabs. */
  tabs: number;
  /** snapshot / navigate / act: lines of the compact accessibility tree (or Markdown), this page. */
  lines?: string[];
  /** The first line shown (1-based). */
  offset?: number;
  /** Lines in all. */
  total_lines?: number;
  /** The `offset` of the next page; absent on the last. */
  next_offset?: number;
  /** Whether lines after this page were left out. */
  truncated?: boolean;
  /** With `changes` (and after `act`): the lines are the new ones; how many were added and removed. */
  changes?: { added: number; removed: number };
  /** With `find`: the text looked for (the lines are those that hold it, any letter case). */
  find?: string;
  /** `markdown` when the lines are the page as Markdown. */
  format?: "markdown";
  /** act: actions asked and done. */
  requested?: number;
  completed?: number;
  /** act: the actions took the tab to another page (the lines are its tree). */
  navigated?: boolean;
  /** act: the first action that could not be done (the rest were not run). */
  failed?: { index: number; type: string; message: string };
  /** read: one answer per query. */
  answers?: PreviewReadAnswer[];
  /** shot: the PNG, base64. */
  image_base64?: string;
  mime_type?: string;
  /** tabs: every open tab. */
  tab_list?: Array<{ tab: number; url: string; title: string; current: boolean }>;
  /** What happened since the last call: refused requests, dialogs, popups, downloads, page errors. */
  events: BrowserEvent[];
  /** Events left out past the cap. */
  events_omitted: number;
}
