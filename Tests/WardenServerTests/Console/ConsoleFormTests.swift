import Foundation
import Testing
import WardenCore
import WardenWire

@testable import WardenServer

/// The console's forms (SPEC §14): a form becomes the Management API's JSON body, a stored record becomes the
/// form's values, and a refusal of the Management API's validation lands next to the field it names.
@Suite("console: forms")
struct ConsoleFormTests {
    static let form = ConsoleForm([
        .init(
            legend: "Test",
            fields: [
                ConsoleField("name", "Name", .text(whenEmpty: .emptyString)),
                ConsoleField("description", "Description"),
                ConsoleField("reason", "Reason", .text(whenEmpty: .omitted)),
                ConsoleField("password", "Password", .password),
                ConsoleField("lifetime", "Lifetime", .number()),
                ConsoleField("callbacks", "Callbacks", .lines()),
                ConsoleField("scopes", "Scopes", .lines(keys: ["value", "description"])),
                ConsoleField("kind", "Kind", .select(ConsoleField.options(["", "a", "b"]))),
                ConsoleField("on", "On", .checkbox),
                ConsoleField("grants", "Grants", .checkboxes(ConsoleField.options(["x", "y"]))),
                ConsoleField("nested.alg", "Alg", .select(ConsoleField.options(["", "RS256"]))),
                ConsoleField("nested.flag", "Flag", .checkbox),
            ])
    ])

    @Test func aFormBecomesTheManagementBody() {
        let input = [
            "name": " App ", "description": "", "reason": "", "password": "", "lifetime": "3600",
            "callbacks": "https://a.example/cb https://b.example/cb\r\nhttps://c.example/cb",
            "scopes": "read:items Read the items\n\nwrite:items", "kind": "b", "on": "on", "grants:y": "on",
            "nested.alg": "RS256",
        ]
        let body = Self.form.body { input[$0] }
        #expect(body["name"] == "App")
        #expect(body["description"] == .null)
        #expect(body["reason"] == nil)
        #expect(body["password"] == nil)
        #expect(body["lifetime"] == .number(3600))
        #expect(body["callbacks"] == ["https://a.example/cb", "https://b.example/cb", "https://c.example/cb"])
        #expect(
            body["scopes"] == [["value": "read:items", "description": "Read the items"], ["value": "write:items"]])
        #expect(body["kind"] == "b")
        #expect(body["on"] == true)
        #expect(body["grants"] == ["y"])
        #expect(body["nested"] == ["alg": "RS256", "flag": false])
    }

    @Test func emptyValuesSendWhatTheirFieldSays() {
        let body = Self.form.body { _ in nil }
        #expect(body["name"] == "")
        #expect(body["kind"] == .null)
        #expect(body["on"] == false)
        #expect(body["grants"] == [])
        #expect(body["nested"] == .null)
    }

    @Test func aNumberThatIsNotOneIsLeftForTheValidationToName() {
        #expect(Self.form.body { $0 == "lifetime" ? "soon" : nil }["lifetime"] == "soon")
    }

    @Test func aRecordFillsTheForm() {
        let record: JSONValue = [
            "name": "App", "lifetime": 60, "callbacks": ["https://a.example/cb", "https://b.example/cb"],
            "scopes": [["value": "read:items", "description": "Read"]], "on": true, "grants": ["x"],
            "nested": ["alg": "RS256"], "password": "never",
        ]
        let values = Self.form.showing(record).values
        #expect(values["name"] == "App")
        #expect(values["lifetime"] == "60")
        #expect(values["callbacks"] == "https://a.example/cb\nhttps://b.example/cb")
        #expect(values["scopes"] == "read:items Read")
        #expect(values["on"] == "on")
        #expect(values["grants:x"] == "on" && values["grants:y"] == nil)
        #expect(values["nested.alg"] == "RS256")
        #expect(values["password"] == nil)
    }

    @Test func whatWasTypedIsKeptButNeverThePassword() {
        let input = ["name": "typed", "password": "secret123", "grants:x": "on"]
        let form = Self.form.filled(Self.form.typed { input[$0] })
        #expect(form.values["name"] == "typed")
        #expect(form.values["grants:x"] == "on")
        #expect(form.values["password"] == nil)
    }

    @Test(arguments: [
        ("Payload validation error: 'Missing required property or empty string' on property name.", "name"),
        ("Payload validation error: 'Expected an absolute URL' on property callbacks[1].", "callbacks"),
        ("Payload validation error: 'Contains a space' on property scopes[0].value.", "scopes"),
        ("Payload validation error: 'Value \"x\" is not one of: RS256' on property nested.alg.", "nested.alg"),
    ])
    func aRefusalLandsNextToTheFieldItNames(message: String, field: String) {
        let form = Self.form.refused(.invalidBody(message))
        #expect(form.errors.keys.sorted() == [field])
        #expect(form.problem == nil)
    }

    @Test func aRefusalNamingNoFieldIsTheFormsProblem() {
        let conflict = ManagementError.conflict("The user already exists.")
        #expect(Self.form.refused(conflict).problem == "The user already exists.")
        let unknown = ManagementError.invalidBody(
            "Payload validation error: 'Expected type string' on property namesake.")
        #expect(Self.form.refused(unknown).errors.isEmpty)
    }

    @Test func theProblemOfARuleKeepsItsPosition() {
        let (property, problem) = ConsoleForm.property(
            of: "Payload validation error: 'Unexpected token at position 7' on property condition.")
        #expect(property == "condition")
        #expect(problem == "Unexpected token at position 7")
    }

    @Test func theViewTiesEachInputToItsHintAndError() throws {
        let view = ConsoleFormView(
            Self.form.refused(.invalidBody("Payload validation error: 'Bad' on property nested.alg.")))
        let alg = try #require(view.groups[0].fields.first { $0.name == "nested.alg" })
        #expect(alg.id == "f-nested-alg" && alg.error == "Bad" && alg.describedBy == "f-nested-alg-error")
        #expect(alg.isSelect && alg.options.map(\.value) == ["", "RS256"])
        let grants = try #require(view.groups[0].fields.first { $0.name == "grants" })
        #expect(grants.options.map(\.name) == ["grants:x", "grants:y"])
    }

    @Test func thePagerLinksKeepTheQueryAndThePageSize() {
        let page = ConsolePager.request(["page": "2", "per_page": "500"])
        #expect(page == PageRequest(page: 2, perPage: 100))
        let pager = ConsolePager("/admin/users", [("q", "a b"), ("x", "")], page: page, hasMore: true)
        #expect(pager.previous == "/admin/users?q=a%20b&page=1&per_page=100")
        #expect(pager.next == "/admin/users?q=a%20b&page=3&per_page=100")
        #expect(pager.number == 3)
        let first = ConsolePager("/admin/logs", [], page: ConsolePager.request([:]), hasMore: false)
        #expect(first.previous == nil && first.next == nil)
    }
}
