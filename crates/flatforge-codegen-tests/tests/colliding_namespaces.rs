//! Namespaces whose modules would share a name (the codegen snapshot `namespaces.fbs` and the file
//! it includes): sibling modules take their names in the byte order of their components, the
//! first the plain name and the others a `_` more each. `Foo` (included) is `foo` and `foo` is
//! `foo_`, `MyNs` is `my_ns` and `my_ns` is `my_ns_`, `a.Foo` and `a.foo` are `a::foo` and
//! `a::foo_`, and `Type`, `type`, `type_` are `r#type`, `type_`, `type__`. Tables, unions, their
//! vectors, nested flatbuffers, the object API and services all reach the renamed modules.

use flatforge::Builder;
use flatforge_codegen_tests as g;
use g::snapshot_namespaces as ns;

#[test]
fn every_path_reaches_the_renamed_modules() {
    let mut b = Builder::new();
    let start = b.start_nested().unwrap();
    let inner_a = ns::foo::A::create(&mut b, &ns::foo::AArgs { x: 99 }).unwrap();
    let nested = b.end_nested(start, inner_a, None).unwrap();
    let mut keyed: Vec<_> = [3, 1, 2]
        .into_iter()
        .map(|x| ns::foo::A::create(&mut b, &ns::foo::AArgs { x }).unwrap())
        .collect();
    ns::foo::A::sort_by_key(&b, &mut keyed);
    let list = b.create_vector_of_offsets(&keyed).unwrap();
    let ps = b
        .create_vector_of_structs(&[ns::foo::P::new(5), ns::foo::P::new(6)])
        .unwrap();
    // `my_ns.Inner` (module `my_ns_`) and `MyNs.Inner` (module `my_ns`) are two types.
    let mine = ns::my_ns_::Inner::create(&mut b, &ns::my_ns_::InnerArgs { m: 7, b: None }).unwrap();
    let other = ns::my_ns::Inner::create(&mut b, &ns::my_ns::InnerArgs { n: 8 }).unwrap();
    let us = ns::foo_::AnyOffset::create_vector(
        &mut b,
        &[
            ns::foo_::AnyOffset::other(other),
            ns::foo_::AnyOffset::foo_a(keyed[0]),
        ],
    )
    .unwrap();
    let args = ns::foo_::BArgs {
        a: Some(keyed[1]),
        list: Some(list),
        p: Some(ns::foo::P::new(4)),
        ps: Some(ps),
        color: ns::foo::Color::RED,
        u: Some(ns::foo_::AnyOffset::inner(mine)),
        us: Some(us),
        nested: Some(nested),
    };
    let root = ns::foo_::B::create(&mut b, &args).unwrap();
    let bytes = ns::foo_::finish_b_buffer(&mut b, root).unwrap().to_vec();

    let r = ns::foo_::root_as_b(&bytes).unwrap();
    assert_eq!(r.a().map(|a| a.x()), Some(2));
    assert_eq!(
        ns::foo::A::lookup_by_key(r.list().unwrap(), 3).map(|a| a.x()),
        Some(3)
    );
    assert_eq!(r.p().map(|p| p.v()), Some(4));
    assert_eq!(r.ps().map(|ps| ps.len()), Some(2));
    assert_eq!(r.color(), ns::foo::Color::RED);
    assert_eq!(r.u_as_inner().map(|i| i.m()), Some(7));
    assert!(r.u_as_other().is_none());
    let us = r.us().unwrap();
    assert!(matches!(us.get(0), Some(Some(ns::foo_::Any::Other(o))) if o.n() == 8));
    assert!(matches!(us.get(1), Some(Some(ns::foo_::Any::FooA(a))) if a.x() == 1));
    assert_eq!(r.nested_nested_root().map(|a| a.x()), Some(99));

    let owned: ns::foo_::BT = r.unpack();
    assert!(matches!(&owned.u, ns::foo_::AnyT::Inner(i) if i.m == 7));
    let mut again = Builder::new();
    let packed = owned.pack(&mut again).unwrap();
    let bytes = again.finish(packed, None).unwrap();
    assert_eq!(ns::foo_::root_as_b(bytes).unwrap().unpack(), owned);
}

#[test]
fn modules_at_depth_and_named_like_keywords_refer_to_each_other() {
    let mut b = Builder::new();
    let j = ns::a::b::J::builder(&mut b).finish().unwrap();
    let _ = j;
    let e = ns::a::foo::E::builder(&mut b)
        .c(ns::foo::Color::GREEN)
        .finish()
        .unwrap();
    let f = ns::a::foo_::F::builder(&mut b).e(e).finish().unwrap();
    let g = ns::r#type::G::builder(&mut b).f(f).finish().unwrap();
    let h = ns::type_::H::builder(&mut b).g(g).finish().unwrap();
    let i = ns::type__::I::builder(&mut b).h(h).finish().unwrap();
    let parent = ns::a::B::builder(&mut b).i(i).finish().unwrap();
    let bytes = b.finish(parent, None).unwrap();
    let parent = flatforge::root::<ns::a::B>(bytes).unwrap();
    let e = parent.i().and_then(|i| i.h()?.g()?.f()?.e()).unwrap();
    assert_eq!(e.c(), ns::foo::Color::GREEN);
}

/// A server of the service of namespace `foo` (module `foo_`), whose request is a table of `Foo`
/// and response one of `my_ns`.
struct Server;

impl ns::foo_::Lookup for Server {
    type Error = flatforge::BuildError;

    fn get(
        &mut self,
        request: ns::foo::A<'_>,
        response: &mut Builder,
    ) -> Result<flatforge::Offset<ns::my_ns_::Inner<'static>>, Self::Error> {
        ns::my_ns_::Inner::create(
            response,
            &ns::my_ns_::InnerArgs {
                m: request.x() + 1,
                b: None,
            },
        )
    }
}

#[test]
fn services_name_the_renamed_modules() {
    use ns::foo_::Lookup;
    let mut b = Builder::new();
    let a = ns::foo::A::create(&mut b, &ns::foo::AArgs { x: 41 }).unwrap();
    let bytes = b.finish(a, None).unwrap().to_vec();
    let request = flatforge::root::<ns::foo::A>(&bytes).unwrap();
    let mut response = Builder::new();
    let inner = Server.get(request, &mut response).unwrap();
    let bytes = response.finish(inner, None).unwrap();
    assert_eq!(flatforge::root::<ns::my_ns_::Inner>(bytes).unwrap().m(), 42);
    assert_eq!(<Server as Lookup>::NAME, "foo.Lookup");
}

#[test]
fn root_functions_of_two_files_in_one_namespace_do_not_collide() {
    // `foo.B`, root of `namespaces.fbs`, has `root_as_b`; `foo.b_` (type `B_`), root of the
    // included file, comes later and has `root_as_b_`, `finish_b__buffer`, `B__IDENTIFIER`.
    let mut b = Builder::new();
    let root = ns::foo_::B_::create(&mut b, &ns::foo_::BArgs_ { y: 3 }).unwrap();
    let bytes = ns::foo_::finish_b__buffer(&mut b, root).unwrap().to_vec();
    assert!(ns::foo_::b__buffer_has_identifier(&bytes));
    assert!(!ns::foo_::b_buffer_has_identifier(&bytes));
    assert_eq!(&ns::foo_::B__IDENTIFIER, b"NSIN");
    assert_eq!(&ns::foo_::B_IDENTIFIER, b"NSRT");
    assert_eq!(ns::foo_::root_as_b_(&bytes).unwrap().y(), 3);
}
