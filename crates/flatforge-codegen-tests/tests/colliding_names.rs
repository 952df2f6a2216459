//! Names that collide (the codegen snapshot `names.fbs`): declared types and fields keep their
//! names, and what the generator adds beside them takes a `_`: `Item`'s arguments are
//! `ItemArgs_` beside a table `ItemArgs`, the setter of `Point.x` is `set_x_` beside a field
//! `set_x`, `Holder.u`'s accessor of its `Item` member is `u_as_item_` beside a field
//! `u_as_item`. Types named like prelude values or keywords are `Some_`, `Ok_`, `Self_`. A field
//! named like a method of the runtime's traits (`verify_root_at`) keeps its name.

use flatforge::Builder;
use flatforge_codegen_tests as g;
use g::snapshot_names::names;

#[test]
fn generated_names_step_aside_for_declared_ones() {
    let mut b = Builder::new();
    let start = b.start_nested().unwrap();
    let inner = names::Item::create(&mut b, &names::ItemArgs_ { id: 9 }).unwrap();
    let nested = b.end_nested(start, inner, None).unwrap();
    let item = names::Item::create(&mut b, &names::ItemArgs_ { id: 7 }).unwrap();
    let args = names::HolderArgs {
        u: Some(names::ChoiceOffset::item(item)),
        u_as_item: 5,
        n: Some(nested),
        n_nested_root: 11,
        verify_root_at: 13,
    };
    let holder = names::Holder::create(&mut b, &args).unwrap();
    let bytes = names::finish_holder_buffer(&mut b, holder)
        .unwrap()
        .to_vec();

    let h = names::root_as_holder(&bytes).unwrap();
    assert_eq!(h.u_as_item_().map(|i| i.id()), Some(7));
    assert_eq!(h.u_as_item(), 5);
    assert_eq!(h.n_nested_root_().map(|i| i.id()), Some(9));
    assert_eq!(h.n_nested_root(), 11);
    assert_eq!(h.verify_root_at(), 13);
    let owned: names::HolderT = h.unpack();
    assert_eq!(owned.u_as_item, 5);
    let mut again = Builder::new();
    let packed = owned.pack(&mut again).unwrap();
    let repacked = names::finish_holder_buffer(&mut again, packed).unwrap();
    assert_eq!(names::root_as_holder(repacked).unwrap().unpack(), owned);

    let mut p = names::Point::new(1.0, 2.0);
    p.set_x_(3.0);
    p.set_set_x(4.0);
    assert_eq!((p.x(), p.set_x()), (3.0, 4.0));
}

#[test]
fn types_named_like_prelude_values_and_keywords_work() {
    let mut b = Builder::new();
    let some = names::Some_::create(&mut b, &names::SomeArgs { x: 3 }).unwrap();
    let err = names::Err_::create(
        &mut b,
        &names::ErrArgs {
            ok: Some(names::Ok_::new(8)),
        },
    )
    .unwrap();
    let rs = names::ResultOffset::create_vector(
        &mut b,
        &[
            names::ResultOffset::some(some),
            names::ResultOffset::err(err),
        ],
    )
    .unwrap();
    let this = names::Self_::builder(&mut b)
        .r(names::ResultOffset::err(err))
        .rs(rs)
        .ok(names::Ok_::new(1))
        .finish()
        .unwrap();
    let bytes = b.finish(this, None).unwrap();
    let s: names::Self_ = flatforge::root(bytes).unwrap();
    match s.r() {
        Some(names::Result::Err(e)) => assert_eq!(e.ok().map(|ok| ok.v()), Some(8)),
        other => panic!("{other:?}"),
    }
    let members: Vec<_> = s.rs().unwrap().iter().collect();
    assert!(
        matches!(members[0], Some(names::Result::Some(x)) if x.x() == 3),
        "{members:?}"
    );
    assert_eq!(s.ok().map(|ok| ok.v()), Some(1));
}

/// A struct whose fields are named like the local its `new` builds it in (`s`, then `s_`).
#[test]
fn struct_fields_named_like_new_locals() {
    let l = names::Locals::new(-7, &[1, 2]);
    assert_eq!(l.s(), -7);
    assert_eq!(l.s_().iter().collect::<Vec<i16>>(), [1, 2]);
}
