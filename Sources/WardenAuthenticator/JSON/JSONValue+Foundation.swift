import Foundation
import WardenWire

extension JSONValue {
    /// Converts a property-list-like value (`userInfo` of a push: strings, numbers, Booleans, arrays and
    /// dictionaries) into JSON; `nil` for anything else.
    init?(any value: Any) {
        switch value {
        case let string as String:
            self = .string(string)
        case let bool as Bool where type(of: value) == Bool.self:
            self = .bool(bool)
        case let int as Int:
            self = .number(Double(int))
        case let double as Double:
            self = .number(double)
        case let number as NSNumber:
            self = .number(number.doubleValue)
        case let dictionary as [String: Any]:
            var object: [String: JSONValue] = [:]
            for (key, member) in dictionary {
                guard let converted = JSONValue(any: member) else { return nil }
                object[key] = converted
            }
            self = .object(object)
        case let dictionary as [AnyHashable: Any]:
            var object: [String: JSONValue] = [:]
            for (key, member) in dictionary {
                guard let key = key.base as? String, let converted = JSONValue(any: member) else { return nil }
                object[key] = converted
            }
            self = .object(object)
        case let array as [Any]:
            var elements: [JSONValue] = []
            for element in array {
                guard let converted = JSONValue(any: element) else { return nil }
                elements.append(converted)
            }
            self = .array(elements)
        case is NSNull:
            self = .null
        default:
            return nil
        }
    }
}
