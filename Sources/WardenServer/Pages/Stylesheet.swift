/// The one stylesheet of the hosted pages (SPEC §5): a centred card that fills a phone's width and stays
/// readable on a desktop. Inlined in every page and allowed by its hash in the Content-Security-Policy.
enum Stylesheet {
    static let css = """
        *{box-sizing:border-box}
        body{margin:0;min-height:100vh;display:flex;align-items:center;justify-content:center;\
        font:16px/1.5 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;background:#eef1f5;color:#1c2430}
        main{width:100%;max-width:26rem;margin:1rem;padding:1.5rem;background:#fff;border-radius:.75rem;\
        box-shadow:0 2px 12px rgba(0,0,0,.08)}
        .tenant{margin:0;font-weight:600;color:#4a5568;letter-spacing:.02em}
        img.logo{display:block;max-width:10rem;max-height:3rem;margin:0 0 .5rem}
        h1{margin:.25rem 0 1rem;font-size:1.4rem;line-height:1.25}
        label{display:block;margin:.75rem 0 .25rem;font-weight:600}
        input,button,select,textarea{font:inherit}
        input{width:100%;padding:.7rem;font-size:1rem;border:1px solid #b8c0cc;border-radius:.5rem}
        button{width:100%;margin-top:1rem;padding:.75rem;font-size:1rem;font-weight:600;border:0;\
        border-radius:.5rem;background:#2b59c3;color:#fff;cursor:pointer}
        button.secondary{background:#e2e8f0;color:#1c2430}
        .message{padding:.75rem;border-radius:.5rem;background:#fdecec;color:#8a1c1c}
        .unverified{padding:.75rem;border-radius:.5rem;background:#fff4e0;color:#6b4100;overflow-wrap:anywhere}
        .advice,.hint{color:#4a5568}
        .hint{font-size:.875rem}
        .qr svg{display:block;width:100%;max-width:18rem;height:auto;margin:0 auto}
        .binding{padding:.75rem;border-radius:.5rem;background:#eef3fd;font-size:1.15rem;font-weight:600;\
        overflow-wrap:anywhere}
        ul.scopes{padding-left:1.2rem}
        .detail{margin:1rem 0;padding:.75rem;border:1px solid #d5dbe4;border-radius:.5rem}
        .detail h2{margin:0 0 .5rem;font-size:1rem}
        .detail dl{margin:0}
        .detail dl>div{display:flex;gap:.75rem;padding:.15rem 0}
        .detail dt{flex:0 0 7.5rem;color:#4a5568;overflow-wrap:anywhere}
        .detail dd{margin:0;flex:1;min-width:0;font-weight:600;overflow-wrap:anywhere}
        .detail .depth1{padding-left:1rem}.detail .depth2{padding-left:2rem}.detail .depth3{padding-left:3rem}
        p{overflow-wrap:anywhere}
        ul.alternatives{margin:1.25rem 0 0;padding:0;list-style:none}
        ul.alternatives li{margin:.5rem 0}
        a{color:#2b59c3}
        a.button{display:block;margin-top:1rem;padding:.75rem;text-align:center;font-weight:600;\
        border-radius:.5rem;background:#2b59c3;color:#fff;text-decoration:none}
        ul.rules{margin:.5rem 0 0;padding-left:1.2rem;color:#8a1c1c}
        code.recovery{font-size:1.25rem;letter-spacing:.08em;text-align:center}
        code{display:block;padding:.5rem;overflow-wrap:anywhere;background:#f4f6f9;border-radius:.375rem;\
        font-size:.875rem}
        """
}
