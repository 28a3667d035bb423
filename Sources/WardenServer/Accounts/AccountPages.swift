import HTTPTypes
import WardenCore

/// The hosted pages of the database connection's accounts (SPEC §15.1): phone-sized, plain forms that work
/// without JavaScript, CSRF on every form, the login page's look, each message saying what to do next.

/// `/u/signup`: `email` and `password`, posted with the login transaction's `state` and `csrf`; a refused
/// password lists the rules it broke.
struct SignUpPage: Page {
    static let template = "signup"
    let title = "Create your account"
    var clientName: String
    var formAction: String
    var state: String
    var csrf: String
    var email = ""
    var message: String?
    var brokenRules: BrokenRules?
    var loginURL: String
    /// `disable_signup`: the page says so and shows no form.
    var disabled = false
    /// While passkeys are on (SPEC §17): where the page's script fetches the creation options of "Create a passkey".
    var passkeyOptionsURL: String?
    var status: HTTPResponse.Status = .ok
    /// The organization of the login (SPEC §19): its name and look.
    var branding: PageBranding?
    /// An invitation's e-mail address (SPEC §19): filled in and not editable.
    var invited = false
}

/// `/u/reset-password` without a ticket: asks the e-mail address, and answers the same whatever it is.
struct PasswordResetRequestPage: Page {
    static let template = "reset_request"
    let title = "Reset your password"
    var formAction: String
    var csrf: String
    var state: String?
    var email = ""
    /// After a post: the one answer, whatever the address.
    var sent: String?
    var message: String?
    /// Back to the login form of the transaction the person came from.
    var loginURL: String?
    var status: HTTPResponse.Status = .ok
}

/// `/u/reset-password?ticket=…`: the new password, twice.
struct PasswordResetPage: Page {
    static let template = "reset_password"
    let title = "Choose a new password"
    var email: String
    var formAction: String
    var ticket: String
    var csrf: String
    var message: String?
    var brokenRules: BrokenRules?
    var status: HTTPResponse.Status = .ok
}

enum AccountPageTemplates {
    static let signUp = """
        {{<layout}}{{$content}}{{#page}}
        {{#disabled}}
        <p class="message" role="alert">Sign-up is turned off for {{clientName}}.</p>
        <p class="advice">Ask the administrator for an account, or sign in with one you have.</p>
        {{/disabled}}
        {{^disabled}}
        {{#invited}}<p>You were invited to join <strong>{{branding.name}}</strong>. Create your account to continue to <strong>{{clientName}}</strong>, or <a href="{{loginURL}}">sign in</a> if you have one.</p>{{/invited}}
        {{^invited}}<p>Create an account{{#branding}} for <strong>{{name}}</strong>{{/branding}} to continue to <strong>{{clientName}}</strong>.</p>{{/invited}}
        {{#message}}<p class="message" role="alert">{{message}}</p>{{/message}}
        {{#brokenRules}}<ul class="rules">{{#items}}<li>{{.}}</li>
        {{/items}}</ul>{{/brokenRules}}
        <form method="post" action="{{formAction}}">
        <input type="hidden" name="state" value="{{state}}">
        <input type="hidden" name="csrf" value="{{csrf}}">
        <label for="email">E-mail address</label>
        <input id="email" name="email" type="email" autocomplete="email" required value="{{email}}"{{#invited}} readonly{{/invited}}>
        <label for="password">Password</label>
        <input id="password" name="password" type="password" autocomplete="new-password" required>
        <button type="submit">Sign up</button>
        </form>
        {{#passkeyOptionsURL}}<form id="passkey-signup" method="post" action="{{formAction}}" data-options="{{passkeyOptionsURL}}">
        <input type="hidden" name="state" value="{{state}}">
        <input type="hidden" name="csrf" value="{{csrf}}">
        <input type="hidden" name="email" value="">
        <input type="hidden" name="passkey_session" value="">
        <input type="hidden" name="passkey_response" value="">
        <p class="message" id="passkey-message" role="alert" hidden></p>
        <button type="button" id="passkey-create" class="secondary" hidden>Create a passkey instead</button>
        </form>
        <script>\(PasskeyScript.source)</script>{{/passkeyOptionsURL}}
        {{/disabled}}
        <p class="hint">Already have an account? <a href="{{loginURL}}">Sign in</a></p>
        {{/page}}{{/content}}{{/layout}}
        """

    static let resetRequest = """
        {{<layout}}{{$content}}{{#page}}
        {{#sent}}
        <p role="status">{{sent}}</p>
        <p class="advice">Open the link in the e-mail within 5 minutes. Nothing came? Check the spam folder, or ask
        again in a few minutes.</p>
        {{/sent}}
        {{^sent}}
        <p>Enter the e-mail address of your account and we will send you a link to choose a new password.</p>
        {{#message}}<p class="message" role="alert">{{message}}</p>{{/message}}
        <form method="post" action="{{formAction}}">
        {{#state}}<input type="hidden" name="state" value="{{state}}">{{/state}}
        <input type="hidden" name="csrf" value="{{csrf}}">
        <label for="email">E-mail address</label>
        <input id="email" name="email" type="email" autocomplete="email" required value="{{email}}"{{#invited}} readonly{{/invited}}>
        <button type="submit">Send the link</button>
        </form>
        {{/sent}}
        {{#loginURL}}<p class="hint"><a href="{{loginURL}}">Back to sign in</a></p>{{/loginURL}}
        {{/page}}{{/content}}{{/layout}}
        """

    static let reset = """
        {{<layout}}{{$content}}{{#page}}
        <p>Choose a new password for <strong>{{email}}</strong>. You will be signed out everywhere else.</p>
        {{#message}}<p class="message" role="alert">{{message}}</p>{{/message}}
        {{#brokenRules}}<ul class="rules">{{#items}}<li>{{.}}</li>
        {{/items}}</ul>{{/brokenRules}}
        <form method="post" action="{{formAction}}">
        <input type="hidden" name="ticket" value="{{ticket}}">
        <input type="hidden" name="csrf" value="{{csrf}}">
        <label for="password">New password</label>
        <input id="password" name="password" type="password" autocomplete="new-password" required>
        <label for="password_confirmation">New password again</label>
        <input id="password_confirmation" name="password_confirmation" type="password" autocomplete="new-password"
        required>
        <button type="submit">Set the password</button>
        </form>
        {{/page}}{{/content}}{{/layout}}
        """
}

/// The rules a refused password broke, as sentences (``PasswordPolicy/Violation/brokenRuleMessages``).
struct BrokenRules: Sendable {
    var items: [String]

    init?(_ violation: PasswordPolicy.Violation?) {
        guard let violation, !violation.brokenRuleMessages.isEmpty else { return nil }
        items = violation.brokenRuleMessages
    }
}
