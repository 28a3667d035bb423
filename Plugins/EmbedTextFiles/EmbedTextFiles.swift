import Foundation
import PackagePlugin

/// Embeds text files of a target in its code as Swift string literals (written by the `embed-text` tool at build
/// time), so each is edited as a file and still ships inside the one binary, with no resource bundle. Rebuilt
/// whenever a file changes. The files of each target are listed in ``files``; the target excludes them from its
/// sources in `Package.swift`.
@main
struct EmbedTextFiles: BuildToolPlugin {
    /// A file to embed, relative to its target's folder, as `extension type { static let member: String }`.
    struct EmbeddedFile {
        let path: String
        let type: String
        let member: String
    }

    /// The embedded files of each target that applies the plugin.
    static let files: [String: [EmbeddedFile]] = [
        // The OpenAPI document of the Management and Authentication APIs (SPEC §9).
        "WardenServer": [EmbeddedFile(path: "ManagementAPI/openapi.json", type: "OpenAPIDocument", member: "json")],
        // The 10,000 most common passwords of the password dictionary (SPEC §15.1).
        "WardenCore": [EmbeddedFile(path: "Accounts/common-passwords.txt", type: "CommonPasswords", member: "text")],
    ]

    func createBuildCommands(context: PluginContext, target: any Target) throws -> [Command] {
        let tool = try context.tool(named: "embed-text").url
        return Self.files[target.name, default: []].map { file in
            let input = target.directoryURL.appending(path: file.path)
            let output = context.pluginWorkDirectoryURL.appending(path: "\(file.type)+\(file.member).swift")
            return .buildCommand(
                displayName: "Embedding \(file.path)", executable: tool,
                arguments: [input.path(), output.path(), file.type, file.member],
                inputFiles: [input], outputFiles: [output])
        }
    }
}
