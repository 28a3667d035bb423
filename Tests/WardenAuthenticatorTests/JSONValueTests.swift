import Foundation
import Testing
import WardenAuthenticator
import WardenWire

@Suite struct JSONValueTests {
    let document = Data(
        #"""
        {"s": "text", "n": 2500, "f": 1.5, "b": true, "z": null,
         "o": {"inner": "x"}, "a": [1, "two", false]}
        """#.utf8)

    @Test func decodesEveryKindAndAccessorsMatch() throws {
        let value = try JSONDecoder().decode(JSONValue.self, from: document)
        #expect(value["s"]?.stringValue == "text")
        #expect(value["n"]?.doubleValue == 2500)
        #expect(value["n"]?.intValue == 2500)
        #expect(value["f"]?.doubleValue == 1.5)
        #expect(value["f"]?.intValue == nil)
        #expect(value["b"]?.boolValue == true)
        #expect(value["z"]?.isNull == true)
        #expect(value["o"]?.objectValue?["inner"]?.stringValue == "x")
        #expect(value["o"]?["inner"]?.stringValue == "x")
        #expect(value["a"]?.arrayValue?.count == 3)
        #expect(value["a"]?[1]?.stringValue == "two")
        #expect(value["a"]?[2]?.boolValue == false)
        #expect(value["a"]?[3] == nil)
        #expect(value["missing"] == nil)
    }

    @Test func accessorsReturnNilForOtherKinds() {
        let value: JSONValue = "text"
        #expect(value.doubleValue == nil)
        #expect(value.boolValue == nil)
        #expect(value.objectValue == nil)
        #expect(value.arrayValue == nil)
        #expect(value["key"] == nil)
        #expect(value[0] == nil)
        #expect(JSONValue.number(1).boolValue == nil)
        #expect(JSONValue.bool(true).doubleValue == nil)
    }

    @Test func roundTripsThroughJSON() throws {
        let value = try JSONDecoder().decode(JSONValue.self, from: document)
        let again = try JSONDecoder().decode(JSONValue.self, from: JSONEncoder().encode(value))
        #expect(again == value)
        let integer = String(decoding: try JSONEncoder().encode(JSONValue.number(2500)), as: UTF8.self)
        #expect(integer == "2500")
    }

    @Test func literals() {
        let value: JSONValue = ["type": "payment", "amount": 10, "ok": true, "list": [1, nil]]
        #expect(value["type"] == .string("payment"))
        #expect(value["amount"] == .number(10))
        #expect(value["list"]?[1] == .null)
    }
}
