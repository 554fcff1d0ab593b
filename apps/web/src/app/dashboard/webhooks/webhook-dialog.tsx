'use client';

import { EVENT_TYPES, type Webhook } from '@chorus/validators';
import { useId, useState } from 'react';
import { OneTimeSecret } from '~/components/copy-button';
import { Dialog, DialogActions, DialogClose } from '~/components/dialog';
import { Field } from '~/components/field';
import { useFormAction } from '~/components/use-form-action';
import { createWebhook, updateWebhook } from './actions';

/** The event catalogue as checkboxes, each submitted as `events`; `*` stands for all. */
function EventCheckboxes({ checked, error }: { checked: string[]; error?: string }) {
  const id = useId();
  return (
    <fieldset aria-describedby={error ? `${id}-error` : undefined}>
      <legend>Events</legend>
      <label className="check">
        <input type="checkbox" name="events" value="*" defaultChecked={checked.includes('*')} />
        Every event (<code>*</code>), including types added later
      </label>
      <div className="checks">
        {EVENT_TYPES.map((type) => (
          <label key={type} className="check">
            <input
              type="checkbox"
              name="events"
              value={type}
              defaultChecked={checked.includes(type)}
            />
            <code>{type}</code>
          </label>
        ))}
      </div>
      {error && (
        <small id={`${id}-error`} className="error">
          {error}
        </small>
      )}
    </fieldset>
  );
}

/**
 * Create a webhook (no `webhook`; its secret is then shown once, in the dialog) or edit one,
 * where a disabled endpoint can be turned back on. A refusal keeps what was typed and checked.
 */
export function WebhookDialog({ webhook }: { webhook?: Webhook }) {
  const [open, setOpen] = useState(false);
  const [secret, setSecret] = useState<string>();
  const { result, form, pending, reset } = useFormAction(webhook ? updateWebhook : createWebhook, {
    onSuccess: (answer) => (answer.secret ? setSecret(answer.secret) : setOpen(false)),
  });
  const onOpenChange = (next: boolean) => {
    setOpen(next);
    if (!next) {
      setSecret(undefined);
      reset();
    }
  };
  const fields = result.fields ?? {};
  const disabled = webhook && !webhook.active;
  return (
    <Dialog
      open={open}
      onOpenChange={onOpenChange}
      title={webhook ? 'Edit the webhook' : 'Create a webhook'}
      description={
        webhook
          ? webhook.url
          : 'Chorus sends each event you pick to this URL, signed (Standard Webhooks).'
      }
      trigger={
        webhook ? (
          <button type="button" aria-label={`Edit the webhook to ${webhook.url}`}>
            Edit
          </button>
        ) : (
          <button type="button" className="primary">
            Create webhook
          </button>
        )
      }
    >
      {secret ? (
        <>
          <OneTimeSecret label="Signing secret" value={secret} />
          <p className="muted small">
            Verify each delivery&apos;s <code>webhook-signature</code> with it.
          </p>
          <div className="actions end">
            <DialogClose asChild>
              <button type="button" className="primary">
                Done
              </button>
            </DialogClose>
          </div>
        </>
      ) : (
        <form {...form} className="form">
          {webhook && <input type="hidden" name="id" value={webhook.id} />}
          <Field
            label="URL"
            name="url"
            type="url"
            required
            maxLength={2048}
            placeholder="https://hooks.example.com/chorus"
            defaultValue={webhook?.url}
            error={fields.url}
          />
          <EventCheckboxes checked={webhook?.events ?? []} error={fields.events} />
          <Field
            label="Description (optional)"
            name="description"
            maxLength={500}
            defaultValue={webhook?.description}
            error={fields.description}
          />
          {webhook && (
            <label className="check">
              <input type="checkbox" name="active" defaultChecked={webhook.active} />
              Active{disabled && ': check to re-enable this endpoint'}
            </label>
          )}
          {result.error && !Object.keys(fields).length && (
            <p className="error" role="alert">
              {result.error}
            </p>
          )}
          <DialogActions submit={webhook ? 'Save' : 'Create webhook'} pending={pending} />
        </form>
      )}
    </Dialog>
  );
}
