/// The login page's passkey script (SPEC §17 "Hosted pages"): the hosted pages' one script besides the form post's,
/// inline and allowed by its hash in the Content-Security-Policy. On the form `#passkey` it shows the "Sign in with a
/// passkey" button (hidden without JavaScript, so the password form works as before) and, with `data-autofill`,
/// starts a conditional request on load; either fetches the request options for this login (`data-options`, the
/// form's `state` and `csrf`), asks the browser for a discoverable credential, and posts it back through the form
/// as JSON (WebAuthn Level 3 §5.1.8's encoding: binary members base64url).
enum PasskeyScript {
    static let source = """
        (()=>{const f=document.getElementById("passkey");if(!f||!window.PublicKeyCredential)return;\
        const e=b=>btoa(String.fromCharCode(...new Uint8Array(b))).replace(/\\+/g,"-").replace(/\\//g,"_").replace(/=+$/,"");\
        const d=s=>Uint8Array.from(atob(s.replace(/-/g,"+").replace(/_/g,"/")),c=>c.charCodeAt(0));\
        let pending=null;\
        async function run(mediation){if(pending)pending.abort();pending=new AbortController();\
        const r=await fetch(f.dataset.options,{method:"POST",body:new URLSearchParams({state:f.state.value,csrf:f.csrf.value})});\
        if(!r.ok)return;const o=await r.json();const p=o.authn_params_public_key;p.challenge=d(p.challenge);\
        const c=await navigator.credentials.get({publicKey:p,mediation,signal:pending.signal});if(!c)return;\
        const a=c.response;f.passkey_session.value=o.auth_session;\
        f.passkey_response.value=JSON.stringify({id:c.id,rawId:e(c.rawId),type:c.type,response:{clientDataJSON:e(a.clientDataJSON),\
        authenticatorData:e(a.authenticatorData),signature:e(a.signature),userHandle:a.userHandle?e(a.userHandle):null}});\
        f.submit();}\
        const b=document.getElementById("passkey-button");\
        if(b){b.hidden=false;b.addEventListener("click",()=>run("optional").catch(()=>{}));}\
        if(f.dataset.autofill&&PublicKeyCredential.isConditionalMediationAvailable)\
        PublicKeyCredential.isConditionalMediationAvailable().then(ok=>{if(ok)run("conditional").catch(()=>{});});})()
        """
}
