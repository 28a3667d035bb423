/// `GET /oidc/logout` without `id_token_hint` while signed in (OIDC RP-Initiated Logout 1.0 §2: without a hint
/// the OP asks the person): a form that posts to end the session, with the CSRF token of the session and the
/// request's parameters as hidden fields.
struct LogoutConfirmationPage: Page {
    static let template = "logout_confirmation"
    static let source = """
        {{<layout}}{{$content}}{{#page}}
        <p>Do you want to sign out of {{tenant}}?</p>
        <form method="post" action="{{formAction}}">
        <input type="hidden" name="csrf" value="{{csrf}}">
        {{#fields}}<input type="hidden" name="{{name}}" value="{{value}}">
        {{/fields}}
        <button type="submit">Sign out</button>
        </form>
        {{/page}}{{/content}}{{/layout}}
        """
    let title = "Sign out"
    var formAction: String
    var csrf: String
    var fields: [FormPostPage.Field]
}
