/// Text made safe for HTML and XML markup (HTML §13.1.2.6, XML 1.0 §2.4): the five special characters replaced
/// by entity references, so the result can go into element content and quoted attribute values alike. For markup
/// built in code (SVG charts and QR codes, the approval e-mail); the Mustache templates escape on their own.
public enum MarkupText {
    public static func escaped(_ text: String) -> String {
        var result = ""
        result.reserveCapacity(text.utf8.count)
        for character in text {
            switch character {
            case "&": result += "&amp;"
            case "<": result += "&lt;"
            case ">": result += "&gt;"
            case "\"": result += "&quot;"
            case "'": result += "&#39;"
            default: result.append(character)
            }
        }
        return result
    }
}
