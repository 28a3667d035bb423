import Foundation
import Hummingbird
import WardenCore
import WardenWire

/// The MFA page (SPEC §14 "MFA", §12): which second factors are enabled and when sign-in asks for one — the
/// same settings as `PUT /api/v2/guardian/factors/{name}` and `PUT /api/v2/guardian/policies`.
struct ConsoleMFAPage: Page {
    static let template = "console_mfa"
    let title = "Multi-factor authentication"
    var chrome: ConsoleChrome
    var factors: [Factor]
    var policies: [Policy]
    var notice: String?

    struct Factor: Sendable {
        var name: String
        var label: String
        var enabled: Bool
        /// A WebAuthn factor's `userVerification` choices (SPEC §17); empty for the others.
        var userVerification: [Policy]
        /// Stored, not computed: templates read stored properties only.
        let hasSettings: Bool

        init(name: String, label: String, enabled: Bool, userVerification: [Policy]) {
            self.name = name
            self.label = label
            self.enabled = enabled
            self.userVerification = userVerification
            hasSettings = !userVerification.isEmpty
        }
    }

    struct Policy: Sendable {
        var value: String
        var label: String
        var checked: Bool
    }

    static let source = """
        {{<layout}}{{$content}}{{#page}}
        {{#notice}}<p class="notice" role="status">{{notice}}</p>{{/notice}}
        <p class="hint">The hosted login asks for a second factor as set here: always, or only for a browser the user
        never did MFA in on a network new for them. A user with nothing enrolled is shown a QR code to enrol at
        sign-in. The same settings as the Management API's guardian factors and policies.</p>
        <form class="card settings" method="post" action="{{chrome.base}}mfa">
        <input type="hidden" name="csrf" value="{{chrome.csrf}}">
        <fieldset><legend>Factors</legend>
        {{#factors}}<div class="check"><input id="factor-{{name}}" name="factor-{{name}}" type="checkbox" value="on"{{#enabled}} checked{{/enabled}}>
        <label for="factor-{{name}}">{{label}}</label></div>
        {{#hasSettings}}<div class="field"><label for="uv-{{name}}">User verification (a PIN or fingerprint on the
        key)</label><select id="uv-{{name}}" name="uv-{{name}}">{{/hasSettings}}
        {{#userVerification}}<option value="{{value}}"{{#checked}} selected{{/checked}}>{{label}}</option>{{/userVerification}}
        {{#hasSettings}}</select></div>{{/hasSettings}}
        {{/factors}}
        </fieldset>
        <fieldset><legend>Ask for a second factor</legend>
        {{#policies}}<div class="check"><input id="policy-{{value}}" name="policy" type="radio" value="{{value}}"{{#checked}} checked{{/checked}}>
        <label for="policy-{{value}}">{{label}}</label></div>
        {{/policies}}
        </fieldset>
        <button type="submit">Save</button>
        </form>
        {{/page}}{{/content}}{{/layout}}
        """
}

extension ConsoleController {
    /// The WebAuthn factors' `userVerification` values as the page names them.
    static let verificationChoices: [(WebAuthnFactorSettings.UserVerification, String)] = [
        (.preferred, "When the key can (preferred)"), (.required, "Always (required)"),
        (.discouraged, "Never ask (discouraged)"),
    ]

    func addMFARoutes(to admin: RouterGroup<WardenRequestContext>) {
        admin.get("mfa") { request, context in
            await page(request, context, current: "MFA") { chrome in
                let enabled = try await mfaSettings.enabledMFAFactors()
                let policy = try await mfaSettings.mfaPolicies().first?.rawValue ?? ""
                let labels: [MFAFactor: String] = [
                    .pushNotification: "Push notification to the authenticator app",
                    .otp: "One-time code (any authenticator app, RFC 6238)",
                    .recoveryCode: "Recovery code",
                    .webAuthnRoaming: "Security key (WebAuthn, a roaming authenticator)",
                    .webAuthnPlatform: "This device's fingerprint, face or screen lock (WebAuthn, platform)",
                ]
                var verification: [MFAFactor: WebAuthnFactorSettings.UserVerification] = [:]
                for factor in MFAFactor.webAuthn {
                    verification[factor] = try await mfaSettings.webAuthnFactorSettings(factor).userVerification
                }
                let choices = [
                    ("", "Never"), (MFAPolicy.allApplications.rawValue, "Always, for every application"),
                    (MFAPolicy.confidenceScore.rawValue, "When the sign-in looks unusual (new browser and network)"),
                ]
                return ConsoleMFAPage(
                    chrome: chrome,
                    factors: MFAFactor.all.map { factor in
                        .init(
                            name: factor.rawValue, label: labels[factor] ?? factor.rawValue,
                            enabled: enabled.contains(factor),
                            userVerification: verification[factor].map { current in
                                Self.verificationChoices.map {
                                    .init(value: $0.0.rawValue, label: $0.1, checked: $0.0 == current)
                                }
                            } ?? [])
                    },
                    policies: choices.map { .init(value: $0.0, label: $0.1, checked: $0.0 == policy) },
                    notice: request.uri.queryParameters["done"] == "saved" ? "The MFA settings were saved." : nil)
            }
        }
        admin.post("mfa") { request, context in
            await change(request, context, "Set the MFA factors and policies") { form in
                let chosen = Set(MFAFactor.all.filter { form["factor-\($0.rawValue)"] == "on" })
                let policy = form["policy"].map(MFAPolicy.init(rawValue:))
                let verification = MFAFactor.webAuthn.map { factor in
                    (factor, form["uv-\(factor.rawValue)"].map(WebAuthnFactorSettings.UserVerification.init(rawValue:)))
                }
                guard policy.map(MFAPolicy.all.contains) ?? true,
                    verification.allSatisfy({ $0.1.map(WebAuthnFactorSettings.UserVerification.all.contains) ?? true })
                else {
                    throw ErrorPage(
                        title: "Settings not saved",
                        message: "The form named a policy or a user verification Warden does not have.",
                        advice: "Nothing was changed. Reload \(base)mfa and save again.", status: .badRequest)
                }
                for factor in MFAFactor.all {
                    try await mfaSettings.setMFAFactor(factor, enabled: chosen.contains(factor))
                }
                for case (let factor, let value?) in verification {
                    var settings = try await mfaSettings.webAuthnFactorSettings(factor)
                    settings.userVerification = value
                    try await mfaSettings.setWebAuthnFactorSettings(settings, for: factor)
                }
                try await mfaSettings.setMFAPolicies(policy.map { [$0] } ?? [])
                return base + "mfa?done=saved"
            }
        }
    }
}
