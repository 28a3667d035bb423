import HTTPTypes
import WardenCore

/// A link to another way of proving the second factor.
struct MFALink: Sendable {
    var text: String
    var href: String
}

/// `/u/mfa/enroll` (SPEC §12): the QR code of the `otpauth://` URI with the login's ticket, the secret for typing,
/// the terminal authenticator's command, and a form for the code of an app without push. Reloads itself so a
/// device's enrolment is seen.
struct MFAEnrollPage: Page {
    static let template = "mfa_enroll"
    let title = "Set up two-step sign-in"
    /// Trusted SVG markup from ``QRCode/svg(moduleSize:title:)``, inserted unescaped.
    var qrCode: String
    var secret: String
    var command: String
    var formAction: String
    var state: String
    var csrf: String
    var message: String?
    /// "Add a security key" and the other WebAuthn factors' enrolment (SPEC §17), when enabled.
    var alternatives: [MFALink]
    var refresh: String?
    var status: HTTPResponse.Status

    static let source = """
        {{<layout}}{{$content}}{{#page}}
        <p>Your account needs a second step to sign in. Scan this code with your authenticator app.</p>
        <div class="qr">{{{qrCode}}}</div>
        <p class="hint">Cannot scan it? Enter this key in the app: <code>{{secret}}</code></p>
        <p class="hint">Or enrol the terminal authenticator: <code>{{command}}</code></p>
        <p class="hint">A push app continues by itself once enrolled. With a code-only app, type its code:</p>
        {{#message}}<p class="message" role="alert">{{message}}</p>{{/message}}
        <form method="post" action="{{formAction}}">
        <input type="hidden" name="state" value="{{state}}">
        <input type="hidden" name="csrf" value="{{csrf}}">
        <label for="code">Code from the app</label>
        <input id="code" name="code" inputmode="numeric" autocomplete="one-time-code" pattern="[0-9 ]*" maxlength="10">
        <button type="submit">Continue</button>
        </form>
        {{> mfa_alternatives}}
        {{/page}}{{/content}}{{/layout}}
        """
}

/// `/u/mfa/push` (SPEC §12): waits for the answer to the sign-in push, reloading itself. (Templates read stored
/// properties only: swift-mustache reflects them.)
struct MFAPushPage: Page {
    static let template = "mfa_push"
    enum Status: Sendable {
        case waiting, expired, tooMany
    }

    let title = "Approve the sign-in"
    /// The names of the devices the push went to.
    var devices: String
    var formAction: String
    var state: String
    var csrf: String
    var alternatives: [MFALink]
    var refresh: String?
    let waiting: Bool
    let expired: Bool
    let tooMany: Bool

    init(
        status: Status, devices: String, formAction: String, state: String, csrf: String, alternatives: [MFALink]
    ) {
        self.devices = devices
        self.formAction = formAction
        self.state = state
        self.csrf = csrf
        self.alternatives = alternatives
        (waiting, expired, tooMany) = (status == .waiting, status == .expired, status == .tooMany)
        refresh = expired ? nil : SecondFactorPages.refreshSeconds
    }

    static let source = """
        {{<layout}}{{$content}}{{#page}}
        {{#waiting}}<p role="status">We sent a notification to <strong>{{devices}}</strong>. Approve it there to
        continue.</p>
        <p class="hint">This page updates by itself.</p>{{/waiting}}
        {{#expired}}<p class="message" role="alert">The notification expired before it was answered.</p>
        <form method="post" action="{{formAction}}">
        <input type="hidden" name="state" value="{{state}}">
        <input type="hidden" name="csrf" value="{{csrf}}">
        <button type="submit">Send again</button>
        </form>{{/expired}}
        {{#tooMany}}<p class="message" role="alert">Several sign-in requests are already waiting on your device.
        Answer or reject them there; this page tries again by itself.</p>{{/tooMany}}
        {{> mfa_alternatives}}
        {{/page}}{{/content}}{{/layout}}
        """
}

/// `/u/mfa/otp` and `/u/mfa/recovery` (SPEC §12): one field for a code.
struct MFACodePage: Page {
    static let template = "mfa_code"
    enum Kind: Sendable {
        case otp, recovery
    }

    let title: String
    let prompt: String
    let label: String
    let inputMode: String
    let maxLength: Int
    var formAction: String
    var state: String
    var csrf: String
    var message: String?
    var alternatives: [MFALink]
    var status: HTTPResponse.Status

    init(
        kind: Kind, formAction: String, state: String, csrf: String, message: String?, alternatives: [MFALink],
        status: HTTPResponse.Status
    ) {
        switch kind {
        case .otp:
            title = "Enter your code"
            prompt = "Open your authenticator app and type the 6-digit code it shows for this account."
            (label, inputMode, maxLength) = ("6-digit code", "numeric", 10)
        case .recovery:
            title = "Use a recovery code"
            prompt = "Type the recovery code you saved when you set up two-step sign-in."
            (label, inputMode, maxLength) = ("Recovery code", "text", 40)
        }
        self.formAction = formAction
        self.state = state
        self.csrf = csrf
        self.message = message
        self.alternatives = alternatives
        self.status = status
    }

    static let source = """
        {{<layout}}{{$content}}{{#page}}
        <p>{{prompt}}</p>
        {{#message}}<p class="message" role="alert">{{message}}</p>{{/message}}
        <form method="post" action="{{formAction}}">
        <input type="hidden" name="state" value="{{state}}">
        <input type="hidden" name="csrf" value="{{csrf}}">
        <label for="code">{{label}}</label>
        <input id="code" name="code" inputmode="{{inputMode}}" autocomplete="one-time-code" required \
        maxlength="{{maxLength}}" autocapitalize="characters" spellcheck="false">
        <button type="submit">Continue</button>
        </form>
        {{> mfa_alternatives}}
        {{/page}}{{/content}}{{/layout}}
        """
}

/// The new recovery code, shown once (SPEC §12) after an enrolment or a used recovery code.
struct MFARecoveryCodePage: Page {
    static let template = "mfa_recovery_code"
    let title = "Save your recovery code"
    var code: String
    /// After an enrolment (rather than after a used code).
    var enrolled: Bool
    var formAction: String
    var state: String
    var csrf: String

    static let source = """
        {{<layout}}{{$content}}{{#page}}
        {{#enrolled}}<p role="status">Your authenticator is set up.</p>{{/enrolled}}
        {{^enrolled}}<p role="status">Your recovery code worked and is now used up. Here is a new one.</p>{{/enrolled}}
        <p>If you lose your device, this code lets you sign in once. Write it down or keep it in a password manager;
        it is not shown again.</p>
        <code class="recovery" aria-label="Recovery code">{{code}}</code>
        <form method="post" action="{{formAction}}">
        <input type="hidden" name="state" value="{{state}}">
        <input type="hidden" name="csrf" value="{{csrf}}">
        <button type="submit">I have saved it</button>
        </form>
        {{/page}}{{/content}}{{/layout}}
        """
}

/// The other ways of a second-factor page, a list of links.
/// `/u/mfa/webauthn` ("Use a security key") and `/u/mfa/webauthn-enroll` ("Add a security key", SPEC §17): one
/// button of the passkey script (hidden without JavaScript, which this step needs) and the other ways.
struct MFASecurityKeyPage: Page {
    static let template = "mfa_security_key"
    let title: String
    let intro: String
    let button: String
    /// The passkey script's form and button ids: a sign-in request (`passkey`) or a registration (`passkey-enroll`).
    let formID: String
    let buttonID: String
    var formAction: String
    var optionsURL: String
    var state: String
    var csrf: String
    var message: String?
    var alternatives: [MFALink]
    var status: HTTPResponse.Status

    /// What `/u/mfa/enroll` and this page call enrolling `factor`.
    static func enrolButton(_ factor: MFAFactor) -> String {
        factor == .webAuthnPlatform ? "Use this device's fingerprint, face or screen lock" : "Add a security key"
    }

    /// The step proving the second factor, or enrolling a key of `enrol`.
    static func make(
        enrol: MFAFactor?, formAction: String, optionsURL: String, state: String, csrf: String, message: String?,
        alternatives: [MFALink], status: HTTPResponse.Status
    ) -> MFASecurityKeyPage {
        let (title, intro, button, formID, buttonID) =
            switch enrol {
            case .webAuthnPlatform?:
                (
                    "Use this device to sign in",
                    "Your account needs a second step to sign in. Use this device's fingerprint, face or screen lock.",
                    enrolButton(.webAuthnPlatform), "passkey-enroll", "passkey-add"
                )
            case let factor?:
                (
                    "Add a security key",
                    "Your account needs a second step to sign in. Insert or tap your security key when asked.",
                    enrolButton(factor), "passkey-enroll", "passkey-add"
                )
            case nil:
                (
                    "Verify it is you",
                    "Insert or tap your security key, or use this device's screen lock, when asked.",
                    "Use a security key", "passkey", "passkey-button"
                )
            }
        return MFASecurityKeyPage(
            title: title, intro: intro, button: button, formID: formID, buttonID: buttonID, formAction: formAction,
            optionsURL: optionsURL, state: state, csrf: csrf, message: message, alternatives: alternatives,
            status: status)
    }

    static let source = """
        {{<layout}}{{$content}}{{#page}}
        <p>{{intro}}</p>
        {{#message}}<p class="message" role="alert">{{message}}</p>{{/message}}
        <form id="{{formID}}" method="post" action="{{formAction}}" data-options="{{optionsURL}}">
        <input type="hidden" name="state" value="{{state}}">
        <input type="hidden" name="csrf" value="{{csrf}}">
        <input type="hidden" name="passkey_session" value="">
        <input type="hidden" name="passkey_response" value="">
        <button type="button" id="{{buttonID}}" hidden>{{button}}</button>
        </form>
        <noscript><p class="message">This step needs JavaScript. Turn it on, or choose another way below.</p></noscript>
        {{> mfa_alternatives}}
        <script>\(PasskeyScript.source)</script>
        {{/page}}{{/content}}{{/layout}}
        """
}

enum MFAAlternatives {
    static let partial = """
        <ul class="alternatives">
        {{#alternatives}}<li><a href="{{href}}">{{text}}</a></li>
        {{/alternatives}}
        </ul>
        """
}
