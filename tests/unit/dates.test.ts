/** Content dates: M/D/YY in the files, ISO days inside, 'Month 20YY' on the page, and Present for an empty end. */
import { describe, expect, test } from "vitest";
import { formatContentDate, formatDateRange, formatMonthYear, parseContentDate } from "../../catalogue/dates.ts";

describe("parseContentDate", () => {
  test("M/D/YY is read as an ISO day in 20YY", () => {
    expect(parseContentDate("6/6/25")).toBe("2025-06-06");
    expect(parseContentDate("3/14/19")).toBe("2019-03-14");
    expect(parseContentDate("12/31/99")).toBe("2099-12-31");
    expect(parseContentDate("1/1/00")).toBe("2000-01-01");
    expect(parseContentDate("01/02/03")).toBe("2003-01-02");
    expect(parseContentDate(" 6/6/25 ")).toBe("2025-06-06");
  });

  test("M/D/YYYY is read as written, so a book read before 2000 can be recorded", () => {
    expect(parseContentDate("1/1/1998")).toBe("1998-01-01");
    expect(parseContentDate("6/6/2025")).toBe("2025-06-06");
    expect(parseContentDate("2/29/1996")).toBe("1996-02-29");
    expect(parseContentDate("2/29/1900")).toBeNull();
    // Two-digit years are 20YY: 1/1/98 is 2098, never 1998.
    expect(parseContentDate("1/1/98")).toBe("2098-01-01");
  });

  test("an impossible day such as 2/30/17 is rejected", () => {
    expect(parseContentDate("2/30/17")).toBeNull();
    expect(parseContentDate("4/31/20")).toBeNull();
    expect(parseContentDate("13/1/20")).toBeNull();
    expect(parseContentDate("0/1/20")).toBeNull();
    expect(parseContentDate("1/0/20")).toBeNull();
    expect(parseContentDate("1/32/20")).toBeNull();
  });

  test("29 February exists only in a leap year: 2/29/24 yes, 2/29/23 no", () => {
    expect(parseContentDate("2/29/24")).toBe("2024-02-29");
    expect(parseContentDate("2/29/23")).toBeNull();
    expect(parseContentDate("2/29/00")).toBe("2000-02-29");
  });

  test("malformed strings are rejected", () => {
    for (const text of [
      "",
      "6/6",
      "6/6/025",
      "6/6/0999",
      "6/6/12025",
      "6-6-25",
      "2025-06-06",
      "June 6 2025",
      "a/b/cc",
      "6/6/25x",
      "123/1/25",
      "6//25",
    ]) {
      expect(parseContentDate(text), text).toBeNull();
    }
  });
});

describe("formatting", () => {
  test("an ISO day displays as 'Month 20YY'", () => {
    expect(formatMonthYear("2025-06-06")).toBe("June 2025");
    expect(formatMonthYear("2014-01-31")).toBe("January 2014");
    expect(formatMonthYear("2019-12-05")).toBe("December 2019");
    expect(formatMonthYear(parseContentDate("6/6/25") as string)).toBe("June 2025");
  });

  test("formatContentDate writes a day back as M/D/YY", () => {
    expect(formatContentDate("2025-06-06")).toBe("6/6/25");
    expect(formatContentDate("2003-01-02")).toBe("1/2/03");
    for (const text of ["6/6/25", "12/31/99", "2/29/24"]) {
      expect(formatContentDate(parseContentDate(text) as string)).toBe(text);
    }
    expect(formatContentDate("1998-01-01")).toBe("1/1/1998");
  });

  test("a date range with an empty end reads Present", () => {
    expect(formatDateRange("2019-05-01", "")).toBe("May 2019 – Present");
    expect(formatDateRange("2015-06-22", "2018-12-14")).toBe("June 2015 – December 2018");
  });
});
