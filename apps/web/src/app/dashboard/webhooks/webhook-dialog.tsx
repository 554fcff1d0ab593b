'use client';

import { EVENT_TYPES, type Webhook } from '@chorus/validators';
import { useId, useRef, useState } from 'react';
import { OneTimeSecret } from '~/components/copy-button';
import { Dialog, DialogActions, DialogClose } from '~/components/dialog';
import { Field } from '~/components/field';
import { useToastAction } from '~/components/toast';
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
  const [result, run, pending, reset] = useToastAction(
    webhook ? updateWebhook : createWebhook,
    (answer) => (answer.secret ? setSecret(answer.secret) : setOpen(false)),
  );
  // Checkboxes repeat one name, which the action's typed values cannot hold: the ones sent
  // are kept here. A ref, not state (as in the posts editor): a state update made before the
  // action's await commits after the refusal has redrawn the form, which then showed the
  // events of before the submit (none when creating, the saved ones when editing).
  const sent = useRef<string[]>([]);
  const submit = (form: FormData) => {
    sent.current = form.getAll('events').map(String);
    run(form);
  };
  const onOpenChange = (next: boolean) => {
    setOpen(next);
    if (!next) {
      setSecret(undefined);
      reset();
    }
  };
  const fields = result.fields ?? {};
  const typed = result.values;
  const events = typed ? sent.current : (webhook?.events ?? []);
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
        <form action={submit} className="form" key={result.at}>
          {webhook && <input type="hidden" name="id" value={webhook.id} />}
          <Field
            label="URL"
            name="url"
            type="url"
            required
            maxLength={2048}
            placeholder="https://hooks.example.com/chorus"
            defaultValue={typed?.url ?? webhook?.url}
            error={fields.url}
          />
          <EventCheckboxes checked={events} error={fields.events} />
          <Field
            label="Description (optional)"
            name="description"
            maxLength={500}
            defaultValue={typed?.description ?? webhook?.description}
            error={fields.description}
          />
          {webhook && (
            <label className="check">
              <input
                type="checkbox"
                name="active"
                defaultChecked={typed ? typed.active === 'on' : webhook.active}
              />
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
