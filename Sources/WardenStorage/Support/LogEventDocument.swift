import WardenCore
import WardenWire

import struct Foundation.Date

/// The JSON kept in `logs.data`: the whole ``LogEvent`` with its wire names, the date in milliseconds.
struct LogEventDocument: Codable {
    var logID: String
    var date: Int64
    var type: String
    var description: String?
    var clientID: String?
    var clientName: String?
    var ip: String?
    var userAgent: String?
    var userID: String?
    var userName: String?
    var audience: String?
    var scope: String?
    var organizationID: String?
    var organizationName: String?
    var details: [String: JSONValue]

    enum CodingKeys: String, CodingKey {
        case logID = "log_id"
        case date, type, description
        case clientID = "client_id"
        case clientName = "client_name"
        case ip
        case userAgent = "user_agent"
        case userID = "user_id"
        case userName = "user_name"
        case audience, scope, details
        case organizationID = "organization_id"
        case organizationName = "organization_name"
    }

    init(_ event: LogEvent) {
        logID = event.logID
        date = event.date.millisecondsSince1970
        type = event.type.rawValue
        description = event.description
        clientID = event.clientID
        clientName = event.clientName
        ip = event.ip
        userAgent = event.userAgent
        userID = event.userID
        userName = event.userName
        audience = event.audience
        scope = event.scope
        organizationID = event.organizationID
        organizationName = event.organizationName
        details = event.details
    }

    /// The document as JSON text with sorted keys and without the absent fields, as `JSONColumn.encode` writes
    /// it, but through `JSONValue` serialization: `JSONEncoder` was ~4 % of a client_credentials request's CPU
    /// in a profile (`scripts/bench/run`), and every token exchange writes an event.
    var json: String {
        let strings: [(CodingKeys, String?)] = [
            (.logID, logID), (.type, type), (.description, description), (.clientID, clientID),
            (.clientName, clientName), (.ip, ip), (.userAgent, userAgent), (.userID, userID), (.userName, userName),
            (.audience, audience), (.scope, scope), (.organizationID, organizationID),
            (.organizationName, organizationName),
        ]
        var members = strings.compactMap { key, value in value.map { (key.rawValue, JSONValue.string($0)) } }
        members += [(CodingKeys.date.rawValue, .number(Double(date))), (CodingKeys.details.rawValue, .object(details))]
        members.sort { $0.0 < $1.0 }
        return JSONValue.serializedObject(members)
    }

    var event: LogEvent {
        LogEvent(
            logID: logID, date: Date(millisecondsSince1970: date), type: LogEventType(rawValue: type),
            description: description, clientID: clientID, clientName: clientName, ip: ip, userAgent: userAgent,
            userID: userID, userName: userName, audience: audience, scope: scope, details: details,
            organizationID: organizationID, organizationName: organizationName)
    }
}
