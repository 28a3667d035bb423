import Foundation
import HTTPTypes
import WardenCore

/// An organization's look on the login and sign-up pages of its logins (SPEC §19 `branding`): its name, its logo
/// and its two colors. The colors become a small style sheet, which the page's Content-Security-Policy allows by
/// its hash; the logo's origin is added to `img-src` for that page only.
struct PageBranding: Sendable {
    /// `display_name`, else `name`.
    var name: String
    var logoURL: String?
    /// The colors as CSS; only `#rgb`/`#rrggbb` values get in (checked again here, not only when stored).
    var css: String
    /// `https://host[:port]` of the logo, for `img-src`.
    var logoOrigin: String?

    init(_ organization: Organization) {
        name = DisplayText.clean(organization.shownName)
        var rules: [String] = []
        let colors = organization.branding?.colors
        if let primary = colors?.primary, Organization.Branding.Colors.isColor(primary) {
            rules.append("button:not(.secondary),a.button{background:\(primary)}a{color:\(primary)}")
        }
        if let background = colors?.pageBackground, Organization.Branding.Colors.isColor(background) {
            rules.append("body{background:\(background)}")
        }
        css = rules.joined()
        if let logo = organization.branding?.logoURL, let url = URLComponents(string: logo), url.scheme == "https",
            let host = url.host, !host.isEmpty
        {
            logoURL = logo
            logoOrigin = "https://" + host + (url.port.map { ":\($0)" } ?? "")
        }
    }
}

/// `GET|POST /u/organization?state=…` (SPEC §19 `pre_login_prompt`): a `require` client's login asks for the
/// organization's name before the login page.
struct OrganizationPromptPage: Page {
    static let template = "organization_prompt"
    static let source = """
        {{<layout}}{{$content}}{{#page}}
        <p>Enter the name of your organization to continue to <strong>{{clientName}}</strong>.</p>
        {{#message}}<p class="message" role="alert">{{message}}</p>{{/message}}
        <form method="post" action="{{formAction}}">
        <input type="hidden" name="state" value="{{state}}">
        <input type="hidden" name="csrf" value="{{csrf}}">
        <label for="organization">Organization name</label>
        <input id="organization" name="organization" autocomplete="organization" autocapitalize="none" required value="{{name}}">
        <button type="submit">Continue</button>
        </form>
        <p class="hint">Your administrator can tell you the name your organization uses here.</p>
        {{/page}}{{/content}}{{/layout}}
        """
    let title = "Your organization"
    var clientName: String
    var formAction: String
    var state: String
    var csrf: String
    var name = ""
    /// Why the name was not accepted.
    var message: String?
    var status: HTTPResponse.Status = .ok
}

/// The organization picker after login (SPEC §19 `post_login_prompt`): one button per organization of the user.
struct OrganizationPickPage: Page {
    static let template = "organization_pick"
    static let source = """
        {{<layout}}{{$content}}{{#page}}
        <p>You belong to several organizations. Choose the one to use with <strong>{{clientName}}</strong>.</p>
        <form method="post" action="{{formAction}}">
        <input type="hidden" name="state" value="{{state}}">
        <input type="hidden" name="csrf" value="{{csrf}}">
        {{#organizations}}<button type="submit" name="organization" value="{{id}}" class="secondary">{{label}}</button>
        {{/organizations}}
        </form>
        {{/page}}{{/content}}{{/layout}}
        """
    let title = "Choose an organization"
    var clientName: String
    var formAction: String
    var state: String
    var csrf: String
    var organizations: [Choice]

    struct Choice: Sendable {
        var id: String
        var label: String
    }
}
