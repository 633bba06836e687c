export const THEME_STORAGE_KEY = "avery-quinn-site:theme";
export const VISITOR_STORAGE_KEY = "avery-quinn-site:visitor";
