'use client';

import { signOut } from 'next-auth/react';

export function SignOutButton() {
  return (
    <button
      type="button"
      className="link"
      onClick={() => {
        void signOut({ redirect: false }).then(() => window.location.assign('/sign-in'));
      }}
    >
      Sign out
    </button>
  );
}
