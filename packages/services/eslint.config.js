import base from '@chorus/eslint-config/base';

export default [
  ...base,
  {
    // What a network or a user's server answers is read through one bounded reader
    // (src/shared/answer-body.ts, docs/security.md): a body read whole could be any size.
    files: ['src/**/*.ts'],
    ignores: ['src/shared/answer-body.ts'],
    rules: {
      'no-restricted-syntax': [
        'error',
        {
          selector:
            'CallExpression[arguments.length=0] > MemberExpression.callee > Identifier.property[name=/^(json|text|arrayBuffer|blob|formData|bytes)$/]',
          message:
            'Read an answer with readAnswerText or readAnswerStart (src/shared/answer-body.ts): a body read whole has no size limit.',
        },
      ],
    },
  },
];
