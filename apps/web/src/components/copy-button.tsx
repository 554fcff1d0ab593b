'use client';

import { useState } from 'react';

/** Copies `value` to the clipboard; says so for two seconds. */
export function CopyButton({ value, label = 'Copy' }: { value: string; label?: string }) {
  const [copied, setCopied] = useState(false);
  return (
    <button
      type="button"
      className="secondary"
      onClick={() => {
        void navigator.clipboard?.writeText(value).then(() => {
          setCopied(true);
          setTimeout(() => setCopied(false), 2000);
        });
      }}
    >
      {copied ? 'Copied' : label}
    </button>
  );
}

/** A secret shown once, with its copy button and the warning that goes with it. */
export function OneTimeSecret({ label, value }: { label: string; value: string }) {
  return (
    <div className="secret" role="status">
      <strong>{label}</strong>
      <p className="muted">Copy it now: it is shown this once and cannot be shown again.</p>
      <div className="secret-row">
        <code data-testid="one-time-secret">{value}</code>
        <CopyButton value={value} />
      </div>
    </div>
  );
}
