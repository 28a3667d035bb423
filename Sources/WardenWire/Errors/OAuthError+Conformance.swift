extension OAuthError.Code {
    /// RFC 8707 §2: the `resource` is unknown, repeated, or contradicts `audience` (SPEC §5).
    public static let invalidTarget: Self = "invalid_target"
    /// OIDC Core §3.1.2.6: a `request` object was sent; Warden does not support them (SPEC §5).
    public static let requestNotSupported: Self = "request_not_supported"
    /// OIDC Core §3.1.2.6: a `request_uri` was sent; Warden does not support them (SPEC §5).
    public static let requestURINotSupported: Self = "request_uri_not_supported"
}
