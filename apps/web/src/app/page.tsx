const links = [
  {
    href: '/dashboard',
    title: 'Dashboard',
    text: 'Sign in to manage API keys, OAuth applications and two-factor authentication.',
  },
  {
    href: '/docs',
    title: 'API reference',
    text: 'Every REST endpoint, its parameters, answers and errors.',
  },
  {
    href: '/api/openapi.json',
    title: 'OpenAPI 3.1',
    text: 'The machine-readable contract, for clients and generators.',
  },
  { href: '/api/health', title: 'Health', text: 'Whether the service and its database are up.' },
];

export default function Home() {
  return (
    <main>
      <h1>Chorus</h1>
      <p className="lead">
        Social-content management for organisations: users, integrations, content, analytics and
        webhooks, over a REST API at <code>/api</code>.
      </p>
      <div className="cards">
        {links.map((link) => (
          <a key={link.href} className="card" href={link.href}>
            <strong>{link.title}</strong>
            {link.text}
          </a>
        ))}
      </div>
    </main>
  );
}
