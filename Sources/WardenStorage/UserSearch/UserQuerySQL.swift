public import SQLKit
public import WardenCore

/// Renders a user search query (SPEC §9) as a predicate over the `users` table, for a `WHERE` clause.
///
/// The predicate reads the unqualified columns `user_id`, `email`, `name`, `nickname` (text),
/// `email_verified`, `blocked` (booleans; SQLite `INTEGER` 0/1) and `user_metadata`, `app_metadata`, which must
/// hold `NULL` or the text of a JSON object (`TEXT` or `jsonb` on PostgreSQL). Every value and metadata path
/// taken from the query is bound with `SQLBind`; the SQL text itself is fixed. The semantics, on both engines:
/// - `email`, `name`, `nickname`: `lower()` of both sides compared (SQLite folds ASCII letters only; PostgreSQL
///   follows the database's locale); `user_id` and metadata: compared exactly.
/// - `field:v*`: `LIKE 'v%' ESCAPE '\'`, with `%`, `_` and `\` in `v` escaped. SQLite's `LIKE` ignores ASCII
///   case, so there a case-sensitive field compares `substr(field, 1, length(v)) = v` instead.
/// - Booleans: `field IS TRUE` for `true`, `field IS NOT TRUE` for `false` (so `NULL` counts as false).
/// - Metadata values are read as text: SQLite `json_extract(column, '$."a"."b"')`, with JSON `true`/`false` read
///   as those words and numbers as their SQL text; PostgreSQL `column::jsonb #>> '{a,b}'`. So
///   `user_metadata.vip:true` and `user_metadata.age:42` match a JSON boolean and number. JSON `null` is no value.
/// - `_exists_:field`: `IS NOT NULL`, and for the text columns also `<> ''`.
/// - `NOT q`: `(q) IS NOT TRUE`, so `NOT email:x` also matches users without an e-mail address.
/// - A bare value: any of ``UserQueryField/bareTermFields`` matches it.
public func sqlPredicate(for query: UserQuery, dialect: SQLEngineKind) -> any SQLExpression {
    UserQuerySQLRenderer(engine: dialect).predicate(for: query)
}

private struct UserQuerySQLRenderer {
    let engine: SQLEngineKind

    func predicate(for query: UserQuery) -> any SQLExpression {
        switch query {
        case .matchAll:
            SQLLiteral.boolean(true)
        case .term(let field?, let value):
            match(field, value)
        case .term(nil, let value):
            junction(UserQueryField.bareTermFields.map { match($0, value) }, .or)
        case .exists(let field):
            exists(field)
        case .not(let inner):
            SQLBinaryExpression(SQLGroupExpression(predicate(for: inner)), .isNot, SQLLiteral.boolean(true))
        case .and(let operands):
            junction(operands.map(predicate(for:)), .and)
        case .or(let operands):
            junction(operands.map(predicate(for:)), .or)
        }
    }

    /// `(a AND b …)` or `(a OR b …)`; with no operands, the operator's identity (`TRUE` for AND, `FALSE` for OR).
    private func junction(_ operands: [any SQLExpression], _ op: SQLBinaryOperator) -> any SQLExpression {
        switch operands.count {
        case 0: SQLLiteral.boolean(op == .and)
        case 1: operands[0]
        default: SQLGroupExpression(SQLList(operands, separator: SQLQueryString(" \(op) ")))
        }
    }

    private func match(_ field: UserQueryField, _ value: UserQueryValue) -> any SQLExpression {
        let subject = self.value(of: field)
        if field.isBoolean {
            return switch value {
            case .exact("true"): SQLBinaryExpression(subject, .is, SQLLiteral.boolean(true))
            case .exact("false"): SQLBinaryExpression(subject, .isNot, SQLLiteral.boolean(true))
            // The parser gives a boolean field nothing else; any other value is not a boolean's value.
            default: SQLLiteral.boolean(false)
            }
        }
        switch (value, field.isCaseInsensitive) {
        case (.exact(let text), true):
            return SQLBinaryExpression(lower(subject), .equal, lower(SQLBind(text)))
        case (.exact(let text), false):
            return SQLBinaryExpression(subject, .equal, SQLBind(text))
        case (.prefix(let text), true):
            return like(lower(subject), lower(SQLBind(Self.likePattern(prefix: text))))
        case (.prefix(let text), false) where engine == .sqlite:
            let start = SQLFunction(
                "substr", args: subject, SQLLiteral.numeric("1"), SQLFunction("length", args: SQLBind(text)))
            return SQLBinaryExpression(start, .equal, SQLBind(text))
        case (.prefix(let text), false):
            return like(subject, SQLBind(Self.likePattern(prefix: text)))
        }
    }

    private func exists(_ field: UserQueryField) -> any SQLExpression {
        let subject = value(of: field)
        let notNull = SQLBinaryExpression(subject, .isNot, SQLLiteral.null)
        switch field.column {
        case .userID, .email, .name, .nickname:
            return junction([notNull, SQLBinaryExpression(subject, .notEqual, SQLLiteral.string(""))], .and)
        case .emailVerified, .blocked, .userMetadata, .appMetadata:
            return notNull
        }
    }

    /// The field's value: its column, or for metadata the text at its path (`NULL` when absent or JSON `null`).
    private func value(of field: UserQueryField) -> any SQLExpression {
        let column = SQLIdentifier(field.column.rawValue)
        switch (field.column, engine) {
        case (.userID, _), (.email, _), (.emailVerified, _), (.name, _), (.nickname, _), (.blocked, _):
            return SQLColumn(column)
        case (.userMetadata, .sqlite), (.appMetadata, .sqlite):
            // Keys are quoted; the parser allows only [A-Za-z0-9_-] in them.
            let path = "$" + field.path.map { ".\"\($0)\"" }.joined()
            return SQLQueryString(
                """
                CASE json_type(\(column), \(bind: path)) WHEN 'true' THEN 'true' WHEN 'false' THEN 'false' \
                ELSE CAST(json_extract(\(column), \(bind: path)) AS TEXT) END
                """)
        case (.userMetadata, .postgres), (.appMetadata, .postgres):
            return SQLQueryString("(\(column)::jsonb #>> \(bind: field.path))")
        }
    }

    private func lower(_ expression: any SQLExpression) -> any SQLExpression {
        SQLFunction("lower", args: expression)
    }

    private func like(_ subject: any SQLExpression, _ pattern: any SQLExpression) -> any SQLExpression {
        SQLQueryString("\(subject) LIKE \(pattern) ESCAPE \(literal: "\\")")
    }

    /// `prefix` with LIKE's `%`, `_` and the escape character `\` escaped, then `%`.
    private static func likePattern(prefix: String) -> String {
        var pattern = String.UnicodeScalarView()
        for scalar in prefix.unicodeScalars {
            if scalar == "\\" || scalar == "%" || scalar == "_" {
                pattern.append("\\")
            }
            pattern.append(scalar)
        }
        return String(pattern) + "%"
    }
}
