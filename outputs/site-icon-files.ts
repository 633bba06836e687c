export const SITE_ICON_FILES = { svg: "/favicon.svg", touch: "/apple-touch-icon.png" } as const;
