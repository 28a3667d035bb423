/// The Mustache sources of the hosted pages (SPEC §5: plain HTML forms that work without JavaScript).
///
/// Every page extends ``layout`` (Mustache template inheritance) and reads its own values under `page`;
/// `tenant` and `css` come from the ``PageRenderer``. Values are HTML-escaped by Mustache.
enum PageTemplates {
    /// What every page's `<head>` holds besides its title, for the hosted pages' layout and the console's.
    static let head = """
        <meta charset="utf-8">
        <meta name="viewport" content="width=device-width, initial-scale=1">
        <style>{{{css}}}</style>
        """

    static let layout = """
        <!doctype html>
        <html lang="en">
        <head>
        {{> head}}
        {{#page.refresh}}<meta http-equiv="refresh" content="{{page.refresh}}">{{/page.refresh}}
        {{#page.branding}}{{#css}}<style>{{{css}}}</style>{{/css}}{{/page.branding}}
        <title>{{page.title}} · {{tenant}}</title>
        </head>
        <body>
        <main>
        {{#page.branding}}{{#logoURL}}<img class="logo" src="{{logoURL}}" alt="">{{/logoURL}}
        <p class="tenant">{{name}}</p>{{/page.branding}}{{^page.branding}}<p class="tenant">{{tenant}}</p>{{/page.branding}}
        <h1>{{page.title}}</h1>
        {{$content}}{{/content}}
        </main>
        </body>
        </html>

        """

    static let login = """
        {{<layout}}{{$content}}{{#page}}
        <p>Sign in{{#branding}} to <strong>{{name}}</strong>{{/branding}} to continue to <strong>{{clientName}}</strong>.</p>
        {{#message}}<p class="message" role="alert">{{message}}</p>{{/message}}
        {{#options.password}}<form method="post" action="{{formAction}}">
        <input type="hidden" name="state" value="{{state}}">
        <input type="hidden" name="csrf" value="{{csrf}}">
        <label for="username">E-mail address</label>
        <input id="username" name="username" type="email" autocomplete="username{{#options.passkey.autofill}} webauthn{{/options.passkey.autofill}}" required value="{{email}}">
        {{^options.identifierFirst}}<label for="password">Password</label>
        <input id="password" name="password" type="password" autocomplete="current-password" required>
        {{/options.identifierFirst}}<button type="submit">Continue</button>
        </form>{{/options.password}}
        {{#options.passkey}}<form id="passkey" method="post" action="{{formAction}}" data-options="{{passkeyOptionsURL}}"{{#autofill}} data-autofill="1"{{/autofill}}>
        <input type="hidden" name="state" value="{{state}}">
        <input type="hidden" name="csrf" value="{{csrf}}">
        <input type="hidden" name="passkey_session" value="">
        <input type="hidden" name="passkey_response" value="">
        {{#button}}<button type="button" id="passkey-button" class="secondary" hidden>Sign in with a passkey</button>{{/button}}
        </form>
        <script>\(PasskeyScript.source)</script>{{/options.passkey}}
        {{#resetURL}}<p class="hint"><a href="{{resetURL}}">Forgot password?</a></p>{{/resetURL}}
        {{#signupURL}}<p class="hint">No account yet? <a href="{{signupURL}}">Sign up</a></p>{{/signupURL}}
        {{#options.buttons}}<form method="post" action="{{formAction}}">
        <input type="hidden" name="state" value="{{state}}">
        <input type="hidden" name="csrf" value="{{csrf}}">
        <button type="submit" name="connection" value="{{name}}" class="secondary">Continue with {{label}}</button>
        </form>
        {{/options.buttons}}{{/page}}{{/content}}{{/layout}}
        """

    static let consent = """
        {{<layout}}{{$content}}{{#page}}
        <p><strong>{{clientName}}</strong> asks for access to your account ({{email}}):</p>
        {{#unverified}}<p class="unverified" role="note"><strong>Not verified.</strong> This application registered
        itself; no administrator has checked who runs it.{{#host}} It says it comes from <strong>{{host}}</strong>.{{/host}}
        Allow only if you started this and trust it.</p>{{/unverified}}
        <ul class="scopes">
        {{#scopes}}<li>{{description}}</li>
        {{/scopes}}
        </ul>
        <form method="post" action="{{formAction}}">
        <input type="hidden" name="state" value="{{state}}">
        <input type="hidden" name="csrf" value="{{csrf}}">
        <button type="submit" name="action" value="accept">Allow</button>
        <button type="submit" name="action" value="deny" class="secondary">Deny</button>
        </form>
        {{/page}}{{/content}}{{/layout}}
        """

    static let backchannelApproval = """
        {{<layout}}{{$content}}{{#page}}
        <p><strong>{{clientName}}</strong> asks you ({{email}}) to approve:</p>
        <p class="binding" aria-label="Binding message">{{bindingMessage}}</p>
        <p class="hint">Check that this matches what the application shows.</p>
        {{#audience}}<p>Access to <strong>{{audience}}</strong></p>{{/audience}}
        <ul class="scopes">
        {{#scopes}}<li>{{description}}</li>
        {{/scopes}}
        </ul>
        {{#details}}
        <section class="detail">
        <h2>{{heading}}</h2>
        <dl>
        {{#rows}}<div class="depth{{depth}}"><dt>{{label}}</dt><dd>{{value}}</dd></div>
        {{/rows}}
        </dl>
        </section>
        {{/details}}
        <p class="hint">This request expires {{expiresAt}}.</p>
        <form method="post" action="{{formAction}}">
        <input type="hidden" name="csrf" value="{{csrf}}">
        <button type="submit" name="action" value="accept">Approve</button>
        <button type="submit" name="action" value="deny" class="secondary">Deny</button>
        </form>
        {{/page}}{{/content}}{{/layout}}
        """

    static let notice = """
        {{<layout}}{{$content}}{{#page}}
        <p role="status">{{message}}</p>
        <p class="advice">{{advice}}</p>
        {{#link}}<p><a class="button" href="{{url}}">{{label}}</a></p>{{/link}}
        {{/page}}{{/content}}{{/layout}}
        """

    static let enrollmentTicket = """
        {{<layout}}{{$content}}{{#page}}
        <p>Scan this code with your authenticator app to approve sign-ins and requests for <strong>{{email}}</strong>.</p>
        <div class="qr">{{{qrCode}}}</div>
        <p class="hint">Cannot scan it? Enter this link in the app:</p>
        <code>{{uri}}</code>
        <p class="hint">Or enrol the terminal authenticator:</p>
        <code>{{command}}</code>
        <p class="hint">This code works once and for 7 days.</p>
        {{/page}}{{/content}}{{/layout}}
        """

    static let error = """
        {{<layout}}{{$content}}{{#page}}
        <p class="message" role="alert">{{message}}</p>
        <p class="advice">{{advice}}</p>
        {{/page}}{{/content}}{{/layout}}
        """

    static let formPost = """
        {{<layout}}{{$content}}{{#page}}
        <form method="post" action="{{formAction}}">
        {{#fields}}<input type="hidden" name="{{name}}" value="{{value}}">
        {{/fields}}
        <p>Returning you to the application.</p>
        <button type="submit">Continue</button>
        </form>
        <script>\(FormPostPage.script)</script>
        {{/page}}{{/content}}{{/layout}}
        """

    static let signedOut = """
        {{<layout}}{{$content}}{{#page}}
        <p>You have been signed out of {{tenant}}. You can close this window.</p>
        {{/page}}{{/content}}{{/layout}}
        """

    static let demoCallback = """
        {{<layout}}{{$content}}{{#page}}
        {{#code}}
        <p>Warden redirected here with this authorization code (usable once, for 60 seconds):</p>
        <code>{{code}}</code>
        {{#state}}<p>state: {{state}}</p>{{/state}}
        <p>Redeem it at the token endpoint:</p>
        <code>{{curl}}</code>
        {{#hint}}<p class="hint">{{hint}}</p>{{/hint}}
        {{/code}}
        {{^code}}{{^error}}
        <p>No authorization code here. Open the login URL that <strong>warden serve --demo</strong> printed to
        sign in as the demo user.</p>
        {{/error}}{{/code}}
        {{#error}}
        <p class="message" role="alert">{{error}}: {{errorDescription}}</p>
        <p class="advice">Open the login URL from the terminal again to start over.</p>
        {{/error}}
        {{/page}}{{/content}}{{/layout}}
        """
}
