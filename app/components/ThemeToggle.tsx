// The shell script does the switching; the icon follows <html data-theme> in CSS, right from the first paint.
export function ThemeToggle() {
  return (
    <button type="button" className="theme-toggle">
      <svg className="theme-icon-moon" aria-hidden="true" width="22" height="22" viewBox="0 0 24 24">
        <path
          d="M20 14.5A8 8 0 0 1 9.5 4a8 8 0 1 0 10.5 10.5z"
          fill="none"
          stroke="currentColor"
          strokeWidth="2"
          strokeLinejoin="round"
        />
      </svg>
      <svg className="theme-icon-sun" aria-hidden="true" width="22" height="22" viewBox="0 0 24 24">
        <circle cx="12" cy="12" r="4.5" fill="none" stroke="currentColor" strokeWidth="2" />
        <path
          d="M12 2v2.5M12 19.5V22M2 12h2.5M19.5 12H22M4.9 4.9l1.8 1.8M17.3 17.3l1.8 1.8M4.9 19.1l1.8-1.8M17.3 6.7l1.8-1.8"
          stroke="currentColor"
          strokeWidth="2"
          strokeLinecap="round"
        />
      </svg>
      <span className="visually-hidden">Dark theme</span>
    </button>
  );
}
