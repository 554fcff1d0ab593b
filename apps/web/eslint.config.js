import base from '@chorus/eslint-config/base';

export default [...base, { ignores: ['public/**', 'next-env.d.ts'] }];
