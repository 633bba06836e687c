// The shell script shows it and handles the press, so it works on pages without React.
export function ScrollToTop() {
  return (
    <button type="button" className="scroll-top" hidden>
      <svg aria-hidden="true" width="20" height="20" viewBox="0 0 24 24">
        <path d="M12 5l-7 7h4.5v7h5v-7H19z" fill="currentColor" />
      </svg>
      <span className="visually-hidden">Scroll to the top</span>
    </button>
  );
}
