import Foundation
import PackagePlugin

/// Embeds `ManagementAPI/openapi.json` of the target in its code as `OpenAPIDocument.json` (a Swift string
/// literal written by the `embed-text` tool at build time), so the document is edited as a file and still ships
/// inside the one binary. Rebuilt whenever the file changes.
@main
struct EmbedOpenAPIDocument: BuildToolPlugin {
    func createBuildCommands(context: PluginContext, target: any Target) throws -> [Command] {
        let input = target.directoryURL.appending(path: "ManagementAPI/openapi.json")
        let output = context.pluginWorkDirectoryURL.appending(path: "OpenAPIDocument+JSON.swift")
        return [
            .buildCommand(
                displayName: "Embedding the OpenAPI document",
                executable: try context.tool(named: "embed-text").url,
                arguments: [input.path(), output.path(), "OpenAPIDocument", "json"],
                inputFiles: [input], outputFiles: [output])
        ]
    }
}
