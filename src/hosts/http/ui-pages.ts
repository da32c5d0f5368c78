import { html, type Html } from '../../site/html.js'

/** The policy of the UI's own pages and of every site file served: the site's own styles and scripts, nothing else, never in a frame. */
export const uiContentSecurityPolicy =
  "default-src 'none'; style-src 'self'; script-src 'self'; img-src 'self'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'"

function page(title: string, body: Html): string {
  return html`<!doctype html>
    <html lang="en">
      <head>
        <meta charset="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <title>${title} · mk</title>
        <link rel="stylesheet" href="/ui/login.css" />
      </head>
      <body>
        <main id="content">${body}</main>
      </body>
    </html>`.value
}

/** The sign-in form: the API key (or, on a JWT server, the token) is posted once and answered with a session cookie. */
export function loginPage(problem: string | undefined, credential: string): string {
  return page(
    'Sign in',
    html`<h1>Sign in to the knowledge site</h1>
      <p>Paste ${credential}. It is sent once; the browser then keeps a session cookie that ends when it expires or when you sign out.</p>
      ${problem === undefined ? '' : html`<p role="alert" class="problem">${problem}</p>`}
      <form method="post" action="/ui/login">
        <label>Key<input type="password" name="key" autocomplete="off" required /></label>
        <button type="submit">Sign in</button>
      </form>`,
  )
}

/** Why the site cannot be shown now (it could not be built), with a way back. */
export function problemPage(message: string): string {
  return page(
    'Site unavailable',
    html`<h1>The site cannot be shown</h1>
      <p role="alert">${message}</p>
      <p><a href="/ui/">Try again</a></p>`,
  )
}
