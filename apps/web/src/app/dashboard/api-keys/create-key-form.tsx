'use client';

import { OneTimeSecret } from '~/components/copy-button';
import { Field, SelectField } from '~/components/field';
import { ScopeCheckboxes } from '~/components/scope-checkboxes';
import { useFormAction } from '~/components/use-form-action';
import { createKey } from './actions';

const ENVIRONMENTS = [
  { value: 'live', label: 'Live (csk_live_…)' },
  { value: 'test', label: 'Test (csk_test_…)' },
] as const;

/**
 * A new key, shown once above the form; a refusal shows beside its field, and everything typed
 * and chosen is kept.
 */
export function CreateKeyForm() {
  const { result, form, pending } = useFormAction(createKey);
  const fields = result.fields ?? {};
  return (
    <section className="panel">
      <h2>Create a key</h2>
      {result.secret && (
        <OneTimeSecret label={`Your new key “${result.name}”`} value={result.secret} />
      )}
      <form {...form} className="form">
        <Field
          label="Name"
          name="name"
          required
          maxLength={100}
          placeholder="e.g. CI deploy"
          error={fields.name}
        />
        <ScopeCheckboxes legend="Scopes" error={fields.scopes} />
        <div className="row">
          <SelectField
            label="Environment"
            name="environment"
            options={ENVIRONMENTS}
            defaultValue="live"
            error={fields.environment}
          />
          <Field label="Expires (optional)" name="expiresAt" type="date" error={fields.expiresAt} />
        </div>
        {result.error && !Object.keys(fields).length && (
          <p className="error" role="alert">
            {result.error}
          </p>
        )}
        <button className="primary" type="submit" disabled={pending}>
          Create key
        </button>
      </form>
    </section>
  );
}
