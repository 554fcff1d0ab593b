import base from '@chorus/eslint-config/base';

export default base;
