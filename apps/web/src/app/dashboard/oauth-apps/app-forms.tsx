'use client';

import { CopyButton, OneTimeSecret } from '~/components/copy-button';
import { Field, TextAreaField } from '~/components/field';
import { ScopeCheckboxes } from '~/components/scope-checkboxes';
import { useFormAction } from '~/components/use-form-action';
import { createApp, rotateSecret } from './actions';

/**
 * Register an application: its client id, and its secret once, show above the form. A refusal
 * shows beside its field, and everything typed and chosen is kept.
 */
export function CreateAppForm() {
  const { result, form, pending } = useFormAction(createApp);
  const fields = result.fields ?? {};
  return (
    <section className="panel">
      <h2>Register an application</h2>
      {result.clientId && (
        <div className="secret" role="status">
          <strong>Registered</strong>
          <div className="secret-row">
            <span>Client ID</span>
            <code data-testid="new-client-id">{result.clientId}</code>
            <CopyButton value={result.clientId} />
          </div>
        </div>
      )}
      {result.secret && <OneTimeSecret label="Client secret" value={result.secret} />}
      <form {...form} className="form">
        <Field
          label="Name"
          name="name"
          required
          maxLength={100}
          placeholder="e.g. Scheduler app"
          error={fields.name}
        />
        <TextAreaField
          label="Redirect URIs"
          name="redirectUris"
          rows={3}
          required
          placeholder="https://app.example.com/oauth/callback"
          hint="One per line, matched exactly. https, or http on localhost for development."
          error={fields.redirectUris}
        />
        <ScopeCheckboxes legend="Allowed scopes" error={fields.scopes} />
        <fieldset>
          <legend>Client type</legend>
          <label className="check">
            <input type="radio" name="type" value="confidential" defaultChecked />
            Confidential — a server that keeps a client secret
          </label>
          <label className="check">
            <input type="radio" name="type" value="public" />
            Public — a browser or mobile app; no secret, PKCE required
          </label>
        </fieldset>
        {result.error && !Object.keys(fields).length && (
          <p className="error" role="alert">
            {result.error}
          </p>
        )}
        <button className="primary" type="submit" disabled={pending}>
          Register
        </button>
      </form>
    </section>
  );
}

/** A new secret for a confidential application, shown once; a refusal says why beside it. */
export function RotateSecretForm({ clientId }: { clientId: string }) {
  const { result, form, pending } = useFormAction(rotateSecret);
  return (
    <form {...form} className="inline">
      <input type="hidden" name="clientId" value={clientId} />
      <button type="submit" className="secondary" disabled={pending}>
        Rotate secret
      </button>
      {result.secret && <OneTimeSecret label="New client secret" value={result.secret} />}
      {result.error && (
        <p className="error" role="alert">
          {result.error}
        </p>
      )}
    </form>
  );
}
