//! A term of the glossary in running text: underlined, explained on hover and to screen
//! readers.

use crate::model::Strategy;
use crate::playground::glossary;
use crate::views::strategy_mark;
use yew::prelude::*;

/// A term with its glossary definition as a tooltip.
#[derive(Properties, PartialEq)]
pub struct TermProps {
    /// The glossary term.
    pub term: AttrValue,
    /// The words shown (default: the term).
    #[prop_or_default]
    pub children: Html,
}

/// A term of the glossary, explained on hover and to screen readers.
#[function_component(Term)]
pub fn term(props: &TermProps) -> Html {
    let meaning = glossary::define(&props.term).unwrap_or_default();
    let text = if props.children == Html::default() {
        html! { { props.term.clone() } }
    } else {
        props.children.clone()
    };
    html! { <span class="term" title={meaning} aria-description={meaning}>{ text }</span> }
}

/// A glossary term shown as `words`, made in one place for every fixed term of the page
/// rather than spelled out as a component at each.
#[inline(never)]
pub fn term(term: &'static str, words: &'static str) -> Html {
    html! { <Term term={term} children={html! { { words } }} /> }
}

/// A strategy's name as the page shows it wherever one is named: with a short mark when Kafka
/// has not released it, its caveat in full on hover and to screen readers.
pub fn strategy_name(strategy: Strategy) -> Html {
    html! {
        <>
            { strategy.name() }
            if let Some(mark) = strategy_mark(strategy) {
                { " " }
                <span class="caveat-mark" data-testid="caveat" title={strategy.caveat()}
                    aria-description={strategy.caveat()}>{ mark }</span>
            }
        </>
    }
}
