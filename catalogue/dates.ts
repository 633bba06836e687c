// YY means 20YY; a year before 2000 needs all four digits.
import { present } from "./present.ts";

export type IsoDay = string;

const CONTENT_DATE = /^(\d{1,2})\/(\d{1,2})\/(\d{2}|[12]\d{3})$/;

export function parseContentDate(text: string): IsoDay | null {
  const match = CONTENT_DATE.exec(text.trim());
  if (!match) return null;
  const [, monthText, dayText, yearText] = match;
  const yearDigits = present(yearText, "CONTENT_DATE to capture the year");
  const year = yearDigits.length === 2 ? 2000 + Number(yearDigits) : Number(yearDigits);
  const [month, day] = [Number(monthText), Number(dayText)];
  const date = new Date(Date.UTC(year, month - 1, day));
  if (date.getUTCFullYear() !== year || date.getUTCMonth() !== month - 1 || date.getUTCDate() !== day) {
    return null;
  }
  return date.toISOString().slice(0, 10);
}

const MONTHS = "January February March April May June July August September October November December".split(" ");

export function formatMonthYear(day: IsoDay): string {
  const [year, month] = day.split("-");
  return `${MONTHS[Number(month) - 1]} ${year}`;
}

/** "December 7, 2026", from a day or a timestamp. */
export function formatDay(day: IsoDay): string {
  const [year, month, date] = day.slice(0, 10).split("-");
  return `${MONTHS[Number(month) - 1]} ${Number(date)}, ${year}`;
}

export function formatContentDate(day: IsoDay): string {
  const [yearPart, month, date] = day.split("-");
  const year = present(yearPart, "split to return at least one part");
  return `${Number(month)}/${Number(date)}/${year.startsWith("20") ? year.slice(2) : year}`;
}

export function formatDateRange(start: IsoDay, end: IsoDay | ""): string {
  return `${formatMonthYear(start)} – ${end ? formatMonthYear(end) : "Present"}`;
}
