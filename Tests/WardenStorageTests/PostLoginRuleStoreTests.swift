import Foundation
import Testing
import WardenCore
import WardenWire

@testable import WardenStorage

@Suite("PostLoginRuleStore: post-login rules")
struct PostLoginRuleStoreTests {
    private static func rule(order: Int = 1, enabled: Bool = true) -> PostLoginRule {
        PostLoginRule(
            id: uniqueID("plr"), name: "Rule \(order)", enabled: enabled, order: order,
            condition: #"event.user.email == "ann@example.com""#, denyReason: "Not today")
    }

    @Test("insert, read, conflict, update, delete", arguments: TestDatabase.available)
    func lifecycle(database: TestDatabase) async throws {
        try await database.withStore { store in
            var rule = Self.rule()
            try await store.insertPostLoginRule(rule)
            #expect(try await store.postLoginRule(id: rule.id) == rule)
            #expect(try await store.postLoginRule(id: uniqueID("plr")) == nil)
            await #expect(throws: StorageError.conflict("The post-login rule \(rule.id) already exists")) {
                try await store.insertPostLoginRule(rule)
            }

            rule.name = "Renamed"
            rule.enabled = false
            rule.order = 7
            rule.condition = "exists(event.session_transfer_token)"
            rule.denyReason = "No transfers"
            try await store.updatePostLoginRule(rule)
            #expect(try await store.postLoginRule(id: rule.id) == rule)
            await #expect(throws: StorageError.notFound) { try await store.updatePostLoginRule(Self.rule()) }

            #expect(try await store.deletePostLoginRule(id: rule.id))
            #expect(try await store.postLoginRule(id: rule.id) == nil)
            #expect(try await store.deletePostLoginRule(id: rule.id) == false)
        }
    }

    @Test("listed by order then creation; the enabled ones in the same order", arguments: TestDatabase.available)
    func runOrder(database: TestDatabase) async throws {
        try await database.withStore { store in
            let third = Self.rule(order: 5)
            let first = Self.rule(order: 1)
            let disabled = Self.rule(order: 0, enabled: false)
            let second = Self.rule(order: 1)
            for rule in [third, first, disabled, second] {
                try await store.insertPostLoginRule(rule)
                try await Task.sleep(for: .milliseconds(2))  // creation order is insertion order
            }
            let ids = Set([third, first, disabled, second].map(\.id))
            // Other tests' rules share a PostgreSQL database: only these four are compared.
            let listed = try await store.postLoginRules(page: nil).items.filter(ids.containsID)
            #expect(listed == [disabled, first, second, third])
            let enabled = try await store.enabledPostLoginRules()
            #expect(enabled.filter(\.isDisabled).isEmpty)
            let enabledHere = enabled.filter(ids.containsID)
            #expect(enabledHere == [first, second, third])

            var moved = second
            moved.order = 0
            moved.enabled = false
            try await store.updatePostLoginRule(moved)
            let stillEnabled = try await store.enabledPostLoginRules().filter(ids.containsID)
            #expect(stillEnabled == [first, third])
            let relisted = try await store.postLoginRules(page: nil).items.filter(ids.containsID)
            #expect(relisted == [disabled, moved, first, third], "an update keeps the creation time")

            guard database.isIsolated else { return }
            let page = try await store.postLoginRules(page: PageRequest(page: 1, perPage: 3))
            #expect(page.items == [third])
            #expect(page.total == 4)
            let pastTheEnd = try await store.postLoginRules(page: PageRequest(page: 2, perPage: 3))
            #expect(pastTheEnd.items.isEmpty)
        }
    }
}

extension Set<String> {
    /// Whether `rule`'s id is in the set.
    fileprivate func containsID(_ rule: PostLoginRule) -> Bool { contains(rule.id) }
}

extension PostLoginRule {
    fileprivate var isDisabled: Bool { !enabled }
}
