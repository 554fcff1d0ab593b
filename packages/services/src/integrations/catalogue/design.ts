import type { CatalogueEntry } from './types';

export const design: CatalogueEntry[] = [
  {
    id: 'canva',
    name: 'Canva',
    type: 'design',
    description: 'Bring Canva designs into your posts without downloading them first.',
    status: 'active',
    authMethod: 'oauth2',
    scopes: ['profile:read', 'design:meta:read', 'design:content:read', 'asset:read'],
    clientAuth: 'client_secret_basic',
    urls: {
      authorize: 'https://www.canva.com/api/oauth/authorize',
      token: 'https://api.canva.com/rest/v1/oauth/token',
      profile: 'https://api.canva.com/rest/v1/users/me/profile',
      revoke: 'https://api.canva.com/rest/v1/oauth/revoke',
    },
    profile: { accountName: 'profile.display_name' },
    revoke: { style: 'rfc7009' },
    setupSteps: [
      'Click Connect and sign in to Canva.',
      'Allow Chorus to read your designs and assets.',
      'Pick designs from the media library when writing a post.',
    ],
  },
  {
    id: 'figma',
    name: 'Figma',
    type: 'design',
    description: 'Export frames from Figma files as images for your posts.',
    status: 'active',
    authMethod: 'oauth2',
    scopes: ['current_user:read', 'file_content:read'],
    // Figma's OpenAPI description (github.com/figma/rest-api-spec) gives the refresh grant an
    // endpoint of its own (`refreshUrl`), and its OAuth migration guide asks for our client in
    // the Authorization header (docs/integrations.md, Token refresh).
    clientAuth: 'client_secret_basic',
    urls: {
      authorize: 'https://www.figma.com/oauth',
      token: 'https://api.figma.com/v1/oauth/token',
      refresh: 'https://api.figma.com/v1/oauth/refresh',
      profile: 'https://api.figma.com/v1/me',
    },
    profile: { accountName: 'handle' },
    setupSteps: [
      'Click Connect and sign in to Figma.',
      'Allow Chorus to read the files you share with it.',
    ],
  },
  {
    id: 'unsplash',
    name: 'Unsplash',
    type: 'design',
    description: 'Search free, high-resolution Unsplash photos from the post editor.',
    status: 'active',
    authMethod: 'api_key',
    setupSteps: [
      'Create an application at unsplash.com/oauth/applications.',
      'Copy its Access Key.',
      'Paste the key here and click Connect.',
    ],
  },
  {
    id: 'adobe-express',
    name: 'Adobe Express',
    type: 'design',
    description: 'Open Adobe Express templates and publish the results through Chorus.',
    status: 'coming_soon',
    authMethod: 'oauth2',
    scopes: ['openid', 'AdobeID', 'creative_sdk'],
    scopeSeparator: ',',
    urls: {
      authorize: 'https://ims-na1.adobelogin.com/ims/authorize/v2',
      token: 'https://ims-na1.adobelogin.com/ims/token/v3',
      profile: 'https://ims-na1.adobelogin.com/ims/userinfo/v2',
    },
    profile: { accountName: 'name' },
    setupSteps: ['Click Connect and sign in with your Adobe ID.', 'Allow Chorus access.'],
  },
];
