/// The hosted pages' passkey script (SPEC §17 "Hosted pages"): the one script besides the form post's, inline and
/// allowed by its hash in the Content-Security-Policy. Its buttons are hidden without JavaScript, so the password
/// forms work as before.
/// - The login page's form `#passkey`: it shows "Sign in with a passkey" and, with `data-autofill`, starts a
///   conditional request on load; either fetches the request options of this login (`data-options`, with the form's
///   `state` and `csrf`), asks the browser for a discoverable credential and posts it back through the form.
/// - The sign-up page's form `#passkey-signup`: "Create a passkey" fetches the creation options for the address typed
///   in `#email` (a refusal is shown in `#passkey-message`), asks the browser to create the credential and posts it.
/// - The progressive enrolment page's form `#passkey-enroll`: "Create a passkey" does the same for the signed-in
///   user, `excludeCredentials` included.
/// - The security key pages of the second factor (``MFASecurityKeyPage``) use the same forms: `#passkey` (its
///   request names the user's keys in `allowCredentials`) and `#passkey-enroll`.
///
/// Credentials travel as JSON in WebAuthn Level 3 §5.1.8's encoding (binary members base64url).
enum PasskeyScript {
    static let source = """
        (()=>{if(!window.PublicKeyCredential)return;\
        const e=b=>btoa(String.fromCharCode(...new Uint8Array(b))).replace(/\\+/g,"-").replace(/\\//g,"_").replace(/=+$/,"");\
        const d=s=>Uint8Array.from(atob(s.replace(/-/g,"+").replace(/_/g,"/")),c=>c.charCodeAt(0));\
        const options=(form,extra)=>fetch(form.dataset.options,{method:"POST",\
        body:new URLSearchParams({state:form.state.value,csrf:form.csrf.value,...extra})});\
        const created=async(form,o)=>{const p=o.authn_params_public_key;p.challenge=d(p.challenge);p.user.id=d(p.user.id);\
        (p.excludeCredentials||[]).forEach(x=>{x.id=d(x.id);});\
        const k=await navigator.credentials.create({publicKey:p});const a=k.response;\
        form.passkey_session.value=o.auth_session;\
        form.passkey_response.value=JSON.stringify({id:k.id,rawId:e(k.rawId),type:k.type,response:{\
        clientDataJSON:e(a.clientDataJSON),attestationObject:e(a.attestationObject),\
        transports:a.getTransports?a.getTransports():[]}});form.submit();};\
        const f=document.getElementById("passkey");\
        if(f){let pending=null;\
        const run=async mediation=>{if(pending)pending.abort();pending=new AbortController();\
        const r=await options(f,{});if(!r.ok)return;const o=await r.json();const p=o.authn_params_public_key;\
        p.challenge=d(p.challenge);(p.allowCredentials||[]).forEach(x=>{x.id=d(x.id);});\
        const c=await navigator.credentials.get({publicKey:p,mediation,signal:pending.signal});if(!c)return;\
        const a=c.response;f.passkey_session.value=o.auth_session;\
        f.passkey_response.value=JSON.stringify({id:c.id,rawId:e(c.rawId),type:c.type,response:{\
        clientDataJSON:e(a.clientDataJSON),authenticatorData:e(a.authenticatorData),signature:e(a.signature),\
        userHandle:a.userHandle?e(a.userHandle):null}});f.submit();};\
        const b=document.getElementById("passkey-button");\
        if(b){b.hidden=false;b.addEventListener("click",()=>run("optional").catch(()=>{}));}\
        if(f.dataset.autofill&&PublicKeyCredential.isConditionalMediationAvailable)\
        PublicKeyCredential.isConditionalMediationAvailable().then(ok=>{if(ok)run("conditional").catch(()=>{});});}\
        const g=document.getElementById("passkey-signup");\
        if(g){const b=document.getElementById("passkey-create"),m=document.getElementById("passkey-message");\
        b.hidden=false;b.addEventListener("click",()=>(async()=>{m.hidden=true;\
        const email=document.getElementById("email").value;g.email.value=email;\
        const r=await options(g,{email});const o=await r.json();\
        if(!r.ok){m.textContent=o.error_description;m.hidden=false;return;}await created(g,o);})().catch(()=>{}));}\
        const h=document.getElementById("passkey-enroll");\
        if(h){const b=document.getElementById("passkey-add");b.hidden=false;\
        b.addEventListener("click",()=>(async()=>{const r=await options(h,{});if(!r.ok)return;\
        await created(h,await r.json());})().catch(()=>{}));}})()
        """
}
