/// A parsed user search query: the `q` of `GET /api/v2/users?q=…&search_engine=v3` (SPEC §9).
///
/// ``UserQueryParser/parse(_:)`` builds it; WardenStorage renders it as SQL. A user matches
/// - ``term(field:value:)`` when the field's value equals the value (or starts with it, for a prefix), compared
///   ignoring case for ``UserQueryField/isCaseInsensitive`` fields; a missing value never matches;
/// - ``exists(_:)`` when the field has a value: not null, and not the empty string for the text columns;
/// - ``not(_:)`` when the inner query does not match — users without the field included.
public indirect enum UserQuery: Sendable, Hashable {
    /// Every user: the empty query, or `*`.
    case matchAll
    /// `field:value`, `field:"phrase"` or `field:prefix*`. Without a field (`jane`), the value is matched
    /// against each of ``UserQueryField/bareTermFields`` and any may match.
    case term(field: UserQueryField?, value: UserQueryValue)
    /// `_exists_:field`, or `field:*`.
    case exists(UserQueryField)
    /// `NOT q`, `!q` or `-q`.
    case not(UserQuery)
    /// `a AND b`, `a && b` or `a b`: every operand matches. The parser never nests an `and` directly in another.
    case and([UserQuery])
    /// `a OR b` or `a || b`: some operand matches. The parser never nests an `or` directly in another.
    case or([UserQuery])
}

/// The value side of a ``UserQuery/term(field:value:)``.
public enum UserQueryValue: Sendable, Hashable {
    /// The whole value: `jane`, `"jane smith"`, `true`. For a boolean field, `true` or `false`.
    case exact(String)
    /// The start of the value: `jan*` is `.prefix("jan")`. Never empty (`field:*` is ``UserQuery/exists(_:)``).
    case prefix(String)
}
