'use client';

import { useState } from 'react';
import { Dialog, DialogActions } from '~/components/dialog';
import { Field } from '~/components/field';
import { useToastAction } from '~/components/toast';
import { connect } from './actions';

type Props = { id: string; name: string; authMethod: 'oauth2' | 'api_key' };

/** OAuth: one button that leaves for the provider. API key: a dialog asking for the key. */
export function ConnectButton({ id, name, authMethod }: Props) {
  const [open, setOpen] = useState(false);
  const [result, run, pending] = useToastAction(connect, () => setOpen(false));
  const hidden = (
    <>
      <input type="hidden" name="integrationId" value={id} />
      <input type="hidden" name="name" value={name} />
    </>
  );
  if (authMethod === 'oauth2') {
    return (
      <form action={run} className="connect">
        {hidden}
        <button type="submit" className="primary" disabled={pending} aria-label={`Connect ${name}`}>
          Connect
        </button>
        {result.error && (
          <p className="error small" role="alert">
            {result.error}
          </p>
        )}
      </form>
    );
  }
  return (
    <Dialog
      open={open}
      onOpenChange={setOpen}
      title={`Connect ${name}`}
      description={`Paste an API key from your ${name} account. It is stored encrypted.`}
      trigger={
        <button type="button" className="primary" aria-label={`Connect ${name}`}>
          Connect
        </button>
      }
    >
      <form action={run} className="form">
        {hidden}
        <Field
          label="API key"
          name="apiKey"
          type="password"
          required
          minLength={8}
          autoComplete="off"
          error={result.fields?.apiKey ?? result.error}
        />
        <DialogActions submit="Connect" pending={pending} />
      </form>
    </Dialog>
  );
}
