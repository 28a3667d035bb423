import Crypto
import Foundation
import HTTPTypes
import Hummingbird
import Mustache
import NIOCore

/// Renders the hosted pages from ``PageTemplates`` with swift-mustache, as `text/html` responses that are
/// never cached and never framed.
struct PageRenderer: Sendable {
    /// The hosted pages. The templates are constants: parsed once per process.
    static let shared = PageRenderer(
        tenant: "Warden", css: Stylesheet.css,
        templates: [
            LoginPage.template: PageTemplates.login,
            ConsentPage.template: PageTemplates.consent,
            ErrorPage.template: PageTemplates.error,
            FormPostPage.template: PageTemplates.formPost,
            SignedOutPage.template: PageTemplates.signedOut,
            DemoCallbackPage.template: PageTemplates.demoCallback,
            BackchannelApprovalPage.template: PageTemplates.backchannelApproval,
            NoticePage.template: PageTemplates.notice,
            EnrollmentTicketPage.template: PageTemplates.enrollmentTicket,
            HomePage.template: HomePage.source,
            LogoutConfirmationPage.template: LogoutConfirmationPage.source,
            AccountLinkPage.template: AccountLinkPage.source,
            PasskeyEnrollPage.template: PasskeyEnrollPage.source,
            MFAEnrollPage.template: MFAEnrollPage.source,
            MFAPushPage.template: MFAPushPage.source,
            MFACodePage.template: MFACodePage.source,
            MFASecurityKeyPage.template: MFASecurityKeyPage.source,
            MFARecoveryCodePage.template: MFARecoveryCodePage.source,
            "mfa_alternatives": MFAAlternatives.partial,
            SignUpPage.template: AccountPageTemplates.signUp,
            PasswordResetRequestPage.template: AccountPageTemplates.resetRequest,
            PasswordResetPage.template: AccountPageTemplates.reset,
            OrganizationPromptPage.template: OrganizationPromptPage.source,
            OrganizationPickPage.template: OrganizationPickPage.source,
        ])

    /// The tenant name shown on every page.
    let tenant: String
    private let css: String
    private let library: MustacheLibrary
    private let securityPolicy: String
    /// ``securityPolicy`` around where a branded page adds its style sheet's hash and its logo's origin.
    private let policyParts: (beforeStyle: String, beforeImages: String, rest: String)

    /// A renderer of `templates` (by name; each extends `layout`, the hosted pages' unless `templates` has its
    /// own) inlining `css`, which the Content-Security-Policy allows by its hash.
    init(tenant: String, css: String, templates: [String: String]) {
        self.tenant = tenant
        self.css = css
        let shared = [
            "head": PageTemplates.head, "layout": PageTemplates.layout, ErrorPage.template: PageTemplates.error,
        ]
        let sources = shared.merging(templates) {
            _, own in own
        }
        // The sources are constants of this module; a parse error is a programming error.
        library = MustacheLibrary(templates: sources.mapValues { try! MustacheTemplate(string: $0) })
        // No form-action: a login form ends in a redirect to the application, which form-action would block.
        policyParts = (
            "default-src 'none'; style-src '\(Self.hash(css))'",
            "; script-src '\(Self.hash(FormPostPage.script))' '\(Self.hash(PasskeyScript.source))'; img-src 'self' data:",
            "; connect-src 'self'; frame-ancestors 'none'; base-uri 'none'"
        )
        securityPolicy = policyParts.beforeStyle + policyParts.beforeImages + policyParts.rest
    }

    /// The policy of a page with `branding`: its style sheet allowed by hash, its logo by origin.
    private func policy(_ branding: PageBranding) -> String {
        policyParts.beforeStyle + (branding.css.isEmpty ? "" : " '\(Self.hash(branding.css))'")
            + policyParts.beforeImages + (branding.logoOrigin.map { " " + $0 } ?? "") + policyParts.rest
    }

    /// The page as an HTML response with the page's status.
    func response(_ page: some Page) -> Response {
        let envelope = Envelope(tenant: tenant, css: css, page: page)
        let html = library.render(envelope, withTemplate: type(of: page).template) ?? ""
        return Response(
            status: page.status,
            headers: [
                .contentType: "text/html; charset=utf-8", .cacheControl: "no-store",
                .contentSecurityPolicy: page.branding.map(policy) ?? securityPolicy,
                HTTPField.Name("X-Frame-Options")!: "DENY",
                HTTPField.Name("X-Content-Type-Options")!: "nosniff", HTTPField.Name("Referrer-Policy")!: "no-referrer",
            ],
            body: .init(byteBuffer: ByteBuffer(string: html)))
    }

    /// What every template sees at the top of its context.
    private struct Envelope: Sendable {
        var tenant: String
        var css: String
        var page: any Page
    }

    /// A CSP hash source (CSP Level 3 §2.3.1) for an inline element's exact text.
    private static func hash(_ text: String) -> String {
        "sha256-" + Data(SHA256.hash(data: Data(text.utf8))).base64EncodedString()
    }
}
