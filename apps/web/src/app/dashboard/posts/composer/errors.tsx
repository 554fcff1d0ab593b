import type { Issue } from '@chorus/validators';

/** Errors beside the field they name, tied to it for screen readers. */
export function Errors({ id, issues }: { id: string; issues: Issue[] }) {
  if (issues.length === 0) return null;
  return (
    <ul id={id} className="error small issues">
      {issues.map((issue) => (
        <li key={`${issue.path}-${issue.message}`}>{issue.message}</li>
      ))}
    </ul>
  );
}
