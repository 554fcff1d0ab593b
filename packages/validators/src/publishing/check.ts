import { countLength } from './length';
import type { NetworkLimits } from './networks';

/** One attachment as the check needs it: facts the media record already has. */
export interface MediaFacts {
  id: string;
  mimeType: string;
  size: number;
}

/** One post of a target's thread (the first is the post itself), its fallbacks applied. */
export interface ResolvedPart {
  content: string;
  media: MediaFacts[];
}

/** A target with the post's fields filled in where the target leaves them out. */
export interface ResolvedTarget {
  parts: ResolvedPart[];
  firstComment: string | null;
}

export interface Issue {
  path: string;
  message: string;
}

function partIssues(
  limits: NetworkLimits,
  part: ResolvedPart,
  at: (field: string) => string,
  name: string,
) {
  const issues: Issue[] = [];
  const length = countLength(limits.lengthRule, part.content);
  if (length > limits.maxLength) {
    issues.push({
      path: at('content'),
      message: `${length} of ${limits.maxLength} allowed on ${name} (${length - limits.maxLength} over).`,
    });
  }
  if (part.media.length > limits.maxMedia) {
    issues.push({
      path: at('mediaIds'),
      message: `${name} takes at most ${limits.maxMedia} attachments.`,
    });
  }
  const hasVideo = part.media.some((item) => item.mimeType.startsWith('video/'));
  if (limits.videoAlone && hasVideo && part.media.length > 1) {
    issues.push({
      path: at('mediaIds'),
      message: `On ${name} a video must be the only attachment.`,
    });
  }
  part.media.forEach((item, index) => {
    const rule = limits.media.find((accepted) => accepted.mimeType === item.mimeType);
    if (!rule) {
      issues.push({
        path: `${at('mediaIds')}[${index}]`,
        message: `${name} does not accept ${item.mimeType}.`,
      });
    } else if (item.size > rule.maxBytes) {
      issues.push({
        path: `${at('mediaIds')}[${index}]`,
        message: `${name} takes ${item.mimeType} up to ${rule.maxBytes} bytes; this one is ${item.size}.`,
      });
    }
  });
  if (part.content.trim() === '' && part.media.length === 0) {
    issues.push({ path: at('content'), message: `A post on ${name} needs text or an attachment.` });
  }
  return issues;
}

/**
 * Everything a network would refuse in this target, with the path of the field at fault
 * (`targets[1].content`, `targets[1].thread[0].mediaIds[2]`). The one place limits are
 * enforced: the server's validation and the composer's live checks both call it.
 */
export function targetIssues(opts: {
  limits: NetworkLimits;
  /** The network's display name, for messages ("Bluesky"). */
  name: string;
  target: ResolvedTarget;
  /** Where the target sits in the request, e.g. `targets[1]`. */
  path: string;
}): Issue[] {
  const { limits, name, target, path } = opts;
  const [first, ...thread] = target.parts;
  if (!first) return [{ path, message: 'A target needs a post.' }];
  const issues = partIssues(limits, first, (field) => `${path}.${field}`, name);
  if (limits.requiresMedia && first.media.length === 0) {
    issues.push({
      path: `${path}.mediaIds`,
      message: `A post on ${name} needs at least one image or video.`,
    });
  }
  if (thread.length > 0 && target.parts.length > limits.maxThreadParts) {
    issues.push({
      path: `${path}.thread`,
      message:
        limits.maxThreadParts === 1
          ? `${name} has no threads.`
          : `A thread on ${name} has at most ${limits.maxThreadParts} posts.`,
    });
  }
  thread.forEach((part, index) => {
    issues.push(...partIssues(limits, part, (field) => `${path}.thread[${index}].${field}`, name));
  });
  if (target.firstComment !== null) {
    if (!limits.firstComment) {
      issues.push({ path: `${path}.firstComment`, message: `${name} has no comments.` });
    } else {
      const length = countLength(limits.lengthRule, target.firstComment);
      if (length > limits.maxLength) {
        issues.push({
          path: `${path}.firstComment`,
          message: `${length} of ${limits.maxLength} allowed on ${name} (${length - limits.maxLength} over).`,
        });
      }
    }
  }
  return issues;
}
