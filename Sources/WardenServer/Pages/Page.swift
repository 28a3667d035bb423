import HTTPTypes
import WardenCore

/// A hosted page (SPEC §5): its template, title and the values the template reads under `page`.
protocol Page: Sendable {
    /// The name of the template in ``PageRenderer``'s library.
    static var template: String { get }
    var title: String { get }
    /// The HTTP status of the response.
    var status: HTTPResponse.Status { get }
    /// An organization's look (SPEC §19), on the pages of its logins.
    var branding: PageBranding? { get }
}

extension Page {
    var status: HTTPResponse.Status { .ok }
    var branding: PageBranding? { nil }
}

/// The login form: posts `username` (the e-mail address), `password` and the hidden `state` and `csrf`
/// fields (SPEC §5).
struct LoginPage: Page {
    static let template = "login"
    let title = "Sign in"
    var clientName: String
    var formAction: String
    var state: String
    var csrf: String
    var email: String
    /// The one failure message; it never tells which of e-mail or password was wrong.
    var message: String?
    /// The login's sign-in methods besides the password (SPEC §15): a button for each.
    var options = LoginOptions()
    /// The "Sign up" link (SPEC §15.1), absent when `disable_signup` is on.
    var signupURL: String?
    /// The "Forgot password?" link (SPEC §15.1).
    var resetURL: String?
    /// Where the passkey script fetches the request options (SPEC §17).
    var passkeyOptionsURL: String?
    /// The organization of the login (SPEC §19): its name and look.
    var branding: PageBranding?

    /// SPEC §15: the buttons of the login page, and whether it asks for the e-mail address first (an enabled
    /// enterprise connection has `domain_aliases`: an address in one of them goes to that connection).
    struct LoginOptions: Sendable {
        var buttons: [Button] = []
        var identifierFirst = false
        /// Whether the login page links to the sign-up page (SPEC §15.1).
        var signup = false
        /// The passkey sign-in (SPEC §17), while passkeys are on.
        var passkey: Passkey?
        /// The e-mail and password form: off for an organization whose enabled connections leave out the
        /// database connection (SPEC §19).
        var password = true
        /// The organization's name and look (SPEC §19).
        var branding: PageBranding?

        /// How the login page asks for a passkey (`passkey_options.challenge_ui`).
        struct Passkey: Sendable {
            /// "Sign in with a passkey" (`button`, `both`).
            var button: Bool
            /// The e-mail field offers passkeys (`autofill`, `both`): a conditional request on load.
            var autofill: Bool
        }

        struct Button: Sendable {
            /// The connection's name, sent as `connection`.
            var name: String
            /// Its `display_name`.
            var label: String
        }
    }
}

/// The consent page of a third-party client (SPEC §4 `is_first_party`): buttons named `action` with
/// values `accept` and `deny` (SPEC §5).
struct ConsentPage: Page {
    static let template = "consent"
    let title = "Authorize application"
    var clientName: String
    var email: String
    var scopes: [ScopeLine]
    var formAction: String
    var state: String
    var csrf: String
    /// Set for a client that registered itself (SPEC §13): the page says it is not verified.
    var unverified: Unverified?

    struct ScopeLine: Sendable {
        var description: String
    }

    /// What the page says of a self-registered client: the host of its `client_uri`, when it gave one.
    struct Unverified: Sendable {
        var host: String?
    }
}

/// An error that cannot be sent back to the application, with what the person can do about it.
struct ErrorPage: Page, Error {
    static let template = "error"
    var title: String
    var message: String
    var advice: String
    var status: HTTPResponse.Status
}

/// The OAuth 2.0 Form Post Response Mode page (OAuth 2.0 Form Post Response Mode §2): a form that submits
/// itself, with a visible button for browsers without JavaScript.
struct FormPostPage: Page {
    static let template = "form_post"
    /// The only script of the hosted pages, allowed by its hash in the Content-Security-Policy.
    static let script = "document.forms[0].submit()"
    let title = "Continue"
    var formAction: String
    var fields: [Field]

    struct Field: Sendable {
        var name: String
        var value: String
    }
}

/// `GET /oidc/logout` without a registered `post_logout_redirect_uri` (SPEC §5).
struct SignedOutPage: Page {
    static let template = "signed_out"
    let title = "You are signed out"
}

/// `GET /demo/callback` of the demo tenant (SPEC §1): the code it received and how to redeem it.
struct DemoCallbackPage: Page {
    static let template = "demo_callback"
    let title = "Demo callback"
    var code: String?
    var state: String?
    var curl: String?
    /// What to do with the curl line.
    var hint: String?
    var error: String?
    var errorDescription: String?

    static func hint(known: Bool, verifierKnown: Bool, confidential: Bool) -> String {
        guard known else {
            return
                "This code is not known (any more): codes live 60 seconds and work once. Sign in again for a new one."
        }
        var text = "Run this within 60 seconds of signing in; the code works once."
        if confidential {
            text += " Replace WEB_CLIENT_SECRET with the secret of the web client printed by warden serve --demo."
        }
        if !verifierKnown {
            text += " Replace VERIFIER with the code verifier your application made (native-to-web prints it)."
        }
        return text
    }
}

/// The CIBA approval page reached from the e-mail (SPEC §6.4): the consent details of §6.5 (the authorization
/// details as ``AuthorizationDetailsDisplay`` lays them out, one labelled line per value) and two buttons named
/// `action`, `accept` and `deny` (SPEC §5).
struct BackchannelApprovalPage: Page {
    static let template = "ciba_approval"
    let title = "Approve request"
    var clientName: String
    var email: String
    var bindingMessage: String
    var audience: String?
    var scopes: [ConsentPage.ScopeLine]
    var details: [AuthorizationDetailsDisplay.Section]
    var expiresAt: String
    var formAction: String
    var csrf: String
}

/// A page that says what happened and what to do next, neutral rather than alarming: the CIBA approval page
/// once answered (or no longer usable), an unknown enrolment ticket. Thrown by handlers like ``ErrorPage``.
struct NoticePage: Page, Error {
    static let template = "notice"
    var title: String
    var message: String
    var advice: String
    var status: HTTPResponse.Status = .ok
    /// A link onwards ("Continue" to the application, "Sign in"), when there is one.
    var link: Link?

    struct Link: Sendable {
        var url: String
        var label: String
    }
}

/// The enrolment ticket page (SPEC §7.1): the QR code (an inline SVG made by ``QRCode``), the URI it encodes
/// and the terminal authenticator's command.
struct EnrollmentTicketPage: Page {
    static let template = "enrollment_ticket"
    let title = "Set up your authenticator"
    var email: String
    /// Trusted SVG markup from ``QRCode/svg(moduleSize:title:)``, inserted unescaped.
    var qrCode: String
    var uri: String
    var command: String
}
