/// `import WardenClient` is enough to use ``JSONValue`` (the wire type of `authorization_details`, RFC 9396, and
/// of free-form claims), which lives in WardenCore with the server's protocol types.
@_exported public import WardenCore
