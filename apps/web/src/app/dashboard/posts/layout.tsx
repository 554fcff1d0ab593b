import type { ReactNode } from 'react';
import './posts.css';

/** The posts pages' own styles, kept beside them. */
export default function PostsLayout({ children }: { children: ReactNode }) {
  return children;
}
