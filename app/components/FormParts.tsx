/** A field people never see; bots that fill it are answered as if they succeeded, so they learn nothing. */
export function Honeypot() {
  return (
    <div className="honeypot" aria-hidden="true">
      <label>
        Leave this field empty
        <input type="text" name="website" tabIndex={-1} autoComplete="off" />
      </label>
    </div>
  );
}

type SendButtonProps = { busy: boolean; busyText: string; label: string; className: string };

export function SendButton({ busy, busyText, label, className }: SendButtonProps) {
  if (busy) {
    return (
      <span className="form-loading" role="status">
        {busyText}
      </span>
    );
  }
  return (
    <button type="submit" className={className}>
      {label}
    </button>
  );
}

export function FormError({ id, message }: { id?: string; message: string }) {
  return (
    <p id={id} className="form-error" role="alert" tabIndex={-1}>
      {message}
    </p>
  );
}
